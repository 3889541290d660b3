# Sourced by scripts/test: the browser tests drive the system Chromium (Debian package "chromium").
# Installs it when missing and this user may (root, or password-less sudo); MINDS_BOT_CHROMIUM may point
# at another Chromium or Chrome binary instead.
if [ -n "${MINDS_BOT_CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1; then
  return 0 2>/dev/null || exit 0
fi
if [ "$(id -u)" = 0 ]; then
  _sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  _sudo="sudo -n"
else
  echo "The browser tests need Chromium. Install it (e.g. 'sudo apt-get install chromium'), or set" >&2
  echo "MINDS_BOT_CHROMIUM to a Chromium/Chrome binary, and run scripts/test again." >&2
  exit 2
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The browser tests need Chromium; this system has no apt-get. Install Chromium and set MINDS_BOT_CHROMIUM." >&2
  exit 2
fi
echo "Installing Chromium for the browser tests (Debian package 'chromium')…" >&2
$_sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $_sudo apt-get install -y -qq chromium >/dev/null
