"""Talking to the running app: the commands other processes send it over its socket."""

from app.command_socket import SUPPORTED, AppCommand, app_is_listening, send_command, socket_path

__all__ = ["AppCommand", "SUPPORTED", "app_is_listening", "send_command", "socket_path"]
