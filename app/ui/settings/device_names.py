"""Which microphones Settings -> Speech lists, and the names it shows for them."""

from app.api.listening import AudioDevice

# ALSA's plugins, as PortAudio lists them next to the cards: the same microphones again, or none.
ALSA_PLUGINS = {"default", "sysdefault", "dmix", "dsnoop", "front", "rear", "center_lfe", "side", "iec958", "spdif"}
ALSA_PLUGINS |= {"hdmi", "surround21", "surround40", "surround41", "surround50", "surround51", "surround71"}
ALSA_PLUGINS |= {"hw", "plughw", "usbstream", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix"}
ALSA_PLUGINS |= {"jack", "oss", "null"}
ALSA_DESCRIPTIONS = {"pulse": "PulseAudio sound server", "pipewire": "PipeWire sound server"}


def _alsa_name(device: AudioDevice) -> str:
    return device.name.partition(":")[0].lower() if device.host_api == "ALSA" else ""


def shown_devices(devices: list[AudioDevice], chosen: str) -> list[AudioDevice]:
    """The microphones worth listing: ALSA's plugins are hidden unless chosen or nothing else is there."""
    shown = [d for d in devices if _alsa_name(d) not in ALSA_PLUGINS or d.name == chosen]
    return shown if any(d.name != chosen for d in shown) else devices


def device_label(device: AudioDevice) -> str:
    """The friendliest name PortAudio gives (it has no descriptions; ALSA's card names say enough)."""
    name = ALSA_DESCRIPTIONS.get(_alsa_name(device)) or device.name
    host = "" if device.host_api == "ALSA" else f" ({device.host_api})"
    return name + host + (", the default" if device.is_default else "")
