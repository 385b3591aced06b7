# Murmur installs webrtcvad-wheels, whose metadata is not named webrtcvad: the contributed hook, which copies
# that metadata, would fail. The module is one compiled file, which PyInstaller finds by itself.
