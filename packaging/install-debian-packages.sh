#!/bin/sh
# Installs the Debian/Ubuntu packages Murmur needs that pip cannot provide, only those missing.
# Used by `make run` and `make test`; safe to run again (it does nothing when all are present).
#   runtime: PortAudio (microphone), the ALSA->PulseAudio plugin, Qt's xcb libraries (a real window)
#   tests:   flite, espeak-ng and sox (real speech), speech-dispatcher (the desktop's speech service, one of the
#            voices replies can be spoken in), PulseAudio (a null-sink microphone and speaker),
#            Xvfb, xdotool, imagemagick and trayer (the real app on a virtual screen with a tray),
#            dbus-daemon (a private session bus for the reminders' desktop notifications),
#            desktop-file-utils and appstream (the menu entry and metainfo `murmur desktop install` writes, validated),
#            flatpak-builder (it reads the Flatpak manifest: the lint a build without the runtimes can have)
set -eu
RUNTIME="libportaudio2 libasound2-plugins libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1
 libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libxcb-render-util0 libxcb-image0 libegl1 libgl1 libfontconfig1
 libdbus-1-3 libglib2.0-0"
TESTS="flite espeak-ng sox speech-dispatcher speech-dispatcher-espeak-ng pulseaudio pulseaudio-utils xvfb xdotool imagemagick trayer dbus-daemon
 desktop-file-utils appstream flatpak-builder"

case "${1:-runtime}" in
  runtime) wanted="$RUNTIME" ;;
  tests) wanted="$RUNTIME $TESTS" ;;
  *) echo "usage: $0 [runtime|tests]" >&2; exit 2 ;;
esac

command -v dpkg >/dev/null 2>&1 || { echo "not a Debian-like system: install the equivalents of: $wanted" >&2; exit 0; }
missing=""
for package in $wanted; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then as_root=""; elif command -v sudo >/dev/null 2>&1; then as_root="sudo"; else
  echo "Murmur needs these Debian packages; install them as root:$missing" >&2; exit 1
fi
echo "installing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -qq
# shellcheck disable=SC2086
$as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
