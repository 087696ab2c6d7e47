# Sourced by the scripts that run Python: puts the project's virtual environment (.venv, made by
# Scripts/setup from Scripts/python/requirements*.txt) first on PATH, so `python3`, `radicale`,
# `xandikos`, `khal` and `vdirsyncer` are the pinned ones, never the system's.
calgw_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -x "$calgw_root/.venv/bin/python3" ]; then
    case ":$PATH:" in
        *":$calgw_root/.venv/bin:"*) ;;
        *) PATH="$calgw_root/.venv/bin:$PATH" ;;
    esac
    export PATH
    export VIRTUAL_ENV="$calgw_root/.venv"
fi
