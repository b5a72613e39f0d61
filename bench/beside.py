"""An earlier revision built beside the working tree, for the side-by-side benchmarks (workerstart.py,
matrixwall.py): a results folder of its own, the revision in a git worktree inside it, both trees compiled (offline
Maven), and the command recorded."""
import datetime
import os
import subprocess
import sys

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prepare(name, before):
    """(results folder, the earlier revision's tree) for bench/results/NAME-<UTC>/, both trees compiled."""
    out = os.path.join(BASE, "bench", "results",
                       name + "-" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%MZ"))
    os.makedirs(out)
    before_dir = os.path.join(out, "before-tree")
    subprocess.run(["git", "worktree", "add", "--detach", "-q", before_dir, before], cwd=BASE, check=True)
    for tree in (BASE, before_dir):
        subprocess.run(["./mvnw", "-o", "-q", "compile"], cwd=tree, check=True)
    with open(os.path.join(out, "command.txt"), "w") as f:
        f.write("bench/" + os.path.basename(sys.argv[0]) + " " + " ".join(sys.argv[1:]) + "\n")
        f.write("HEAD " + subprocess.run(["git", "rev-parse", "HEAD"], cwd=BASE, capture_output=True, text=True)
                .stdout)
    return out, before_dir


def remove(before_dir):
    subprocess.run(["git", "worktree", "remove", "--force", before_dir], cwd=BASE, capture_output=True)
