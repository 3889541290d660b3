# Sourced by scripts/run and scripts/test: make .venv with Python >= 3.11 and install the project into it.
# Usage: . scripts/_venv.sh EXTRAS   (EXTRAS is "" for the bot alone, "demo" for the bot with the Minds sandbox and
# the Slack emulator (scripts/run), "test" for the test suite, which has everything "demo" has)
# "demo" and "test" install the two local distributions in sandbox/ (editable) with the bot, in one pip command.
# Reinstalls only when a pyproject.toml changed since the last install with the same extras or with extras that
# include them (after scripts/test, scripts/run installs nothing).
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
_local="-e sandbox/minds-sandbox -e sandbox/slack-emulator"  # paths without spaces: expanded unquoted below
case "$_extras" in
  "") _enough="base demo test"; _local="" ;;
  demo) _enough="demo test" ;;
  *) _enough="$_extras" ;;
esac
_spec="."
[ -n "$_extras" ] && _spec=".[$_extras]"
_hash=$(.venv/bin/python -c '
import hashlib
digest = hashlib.sha256()
for path in ("pyproject.toml", "sandbox/minds-sandbox/pyproject.toml", "sandbox/slack-emulator/pyproject.toml"):
    digest.update(open(path, "rb").read())
print(digest.hexdigest()[:16])')
_installed=""
for _e in $_enough; do
  [ -f ".venv/.installed-${_hash}-${_e}" ] && _installed=1
done
if [ -z "$_installed" ]; then
  echo "Installing minds-bot${_extras:+ with $_extras extras} into .venv…" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check $_local -e "$_spec"
  touch ".venv/.installed-${_hash}-${_extras:-base}"
fi
