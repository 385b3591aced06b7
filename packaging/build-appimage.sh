#!/bin/sh
# A self-contained build for people without Python: PyInstaller's one folder (Python, Qt, the bundled speech
# engine and its model), laid out as an AppDir, packed with appimagetool into Murmur-x86_64.AppImage.
#   packaging/build-appimage.sh [OUT_DIR]      (default: build/appimage; about 2 minutes on 2 cores)
# appimagetool is downloaded from GitHub by those who build AppImages; where it is missing (no network), the
# AppDir and its squashfs image are made, their sizes printed, and the AppDir can be run as it is (AppRun).
# packaging/appimage/try_bundle.py then starts it on Xvfb with a tray.
set -eu
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:-build/appimage}")"
app_id="io.github.murmurdesktop.Murmur"
appdir="$out/Murmur.AppDir"

make -s .venv/.installed
.venv/bin/python -m pip install --quiet 'pyinstaller>=6.10'
rm -rf "$out"
mkdir -p "$out"
(cd packaging/appimage && ../../.venv/bin/pyinstaller --noconfirm --log-level ERROR \
  --distpath "$out/dist" --workpath "$out/work" murmur.spec)

mkdir -p "$appdir/usr/lib"
mv "$out/dist/murmur" "$appdir/usr/lib/murmur"
cat > "$appdir/AppRun" <<'RUN'
#!/bin/sh
here="$(dirname "$(readlink -f "$0")")"
exec "$here/usr/lib/murmur/murmur" "$@"
RUN
chmod +x "$appdir/AppRun"
.venv/bin/murmur desktop install --prefix "$appdir/usr" >/dev/null  # menu entry, icons, metainfo
cp "$appdir/usr/share/applications/$app_id.desktop" "$appdir/"  # appimagetool reads these two at the top
cp "$appdir/usr/share/icons/hicolor/scalable/apps/$app_id.svg" "$appdir/"
ln -sf "$app_id.svg" "$appdir/.DirIcon"

echo "AppDir: $(du -sh "$appdir" | cut -f1) unpacked"
if command -v mksquashfs >/dev/null 2>&1; then
  mksquashfs "$appdir" "$out/murmur.squashfs" -root-owned -noappend -comp zstd -quiet >/dev/null
  echo "squashfs image (the AppImage less its 0.2 MB runtime): $(du -m "$out/murmur.squashfs" | cut -f1) MB"
fi
tool="${APPIMAGETOOL:-$(command -v appimagetool || true)}"
if [ -n "$tool" ]; then
  ARCH=x86_64 "$tool" --no-appstream "$appdir" "$out/Murmur-x86_64.AppImage"
  echo "AppImage: $out/Murmur-x86_64.AppImage, $(du -m "$out/Murmur-x86_64.AppImage" | cut -f1) MB"
else
  echo "no appimagetool here (set APPIMAGETOOL): the AppDir runs as it is: $appdir/AppRun"
fi
