"""A forked worker's JVM as the service starts one, for the bench scripts that start workers themselves
(repcost.py, phaselength.py): the JDK, the worker flags of application.properties and the launcher's common ones
(keep in step with io.loopbench.worker.WorkerLauncher.COMMON_OPTIONS), and the class path."""
import os

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.environ.get("LOOPBENCH_JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
COMMON = ["--enable-native-access=ALL-UNNAMED", "-Xlog:disable", "-Xlog:all=warning:stderr",
          "-XX:+ExitOnOutOfMemoryError"]


def options():
    """java, the worker flags and the common ones."""
    props = open(os.path.join(BASE, "src/main/resources/application.properties")).read()
    flags = [l.split("=", 1)[1] for l in props.splitlines() if l.startswith("loopbench.worker.jvm-options=")]
    return [JAVA] + flags[0].split(",") + COMMON


def classpath(classes=None):
    """The engine's classes (target/classes, or CLASSES) and target/classpath.txt's jars."""
    return (classes or os.path.join(BASE, "target/classes")) + ":" + open(
        os.path.join(BASE, "target/classpath.txt")).read().strip()
