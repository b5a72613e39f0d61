# The options the bench scripts share, sourced by them: --seconds S --warmup S --repetitions N. Set the defaults
# (seconds, warmup, reps) and usage first, then call parse_options "$@".
parse_options() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --seconds) seconds=$2; shift 2 ;;
      --warmup) warmup=$2; shift 2 ;;
      --repetitions) reps=$2; shift 2 ;;
      *) echo "unknown option $1; $usage" >&2; exit 2 ;;
    esac
  done
}
