# Sourced by scripts/run and scripts/test: make .venv with Python >= 3.11 and install the project into it.
# Usage: . scripts/_venv.sh EXTRAS   (EXTRAS is "" for the bot alone, "test" for the test suite)
# Reinstalls only when pyproject.toml changed since the last install with the same extras.
PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "minds-bot needs Python 3.11 or newer; '$PY' is $("$PY" --version 2>&1 || echo 'missing')." >&2
  echo "Install Python 3.11+ or point PYTHON at one, e.g. PYTHON=python3.12 $0" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv with $("$PY" --version)…" >&2
  "$PY" -m venv .venv
fi
_extras="${1:-}"
_spec="."
[ -n "$_extras" ] && _spec=".[$_extras]"
_hash=$(.venv/bin/python -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest()[:16])')
_stamp=".venv/.installed-${_hash}-${_extras:-base}"
if [ ! -f "$_stamp" ]; then
  echo "Installing minds-bot${_extras:+ with $_extras extras} into .venv…" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$_spec"
  touch "$_stamp"
fi
