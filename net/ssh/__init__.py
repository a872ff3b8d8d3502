"""The SSH front door: anyone with an SSH client plays, each session its own app on its own terminal.

``SSHFrontDoor(SSHSettings(...))`` serves the turpin app over SSH (asyncssh). Every session that asks
for a terminal gets a fresh process running a fixed command on a pseudo-terminal sized like the client's
window; the client's keys go to the pty and the pty's output to the client, resizes included. The
process runs in its own session and process group with the pty as its controlling terminal (so it gets
SIGWINCH), and the whole group ends when the SSH session does, when it idles too long, or when the
server stops. Nothing else is served: no exec, no shell without a pty, no subsystems, no forwarding.

This package prints nothing: ``tui/cli/serve_ssh.py`` is the ``turpin serve-ssh`` that people run.

The package by job: ``settings`` (the settings, the guests' files and environment), ``guests`` (the
password, names and passphrases), ``session`` (one guest's app on its pty) and ``door`` (the server).
Every name the rest of the tree uses is importable from here.
"""

from net.ssh.door import SSHFrontDoor, load_or_make_host_key, refusal
from net.ssh.guests import WrongPasswordBrake, fresh_password, printable
from net.ssh.session import SCREEN_NEWS_BYTES, TERMINAL_RESET, SessionInfo, set_window_size
from net.ssh.settings import (
                              AUTH_MODES,
                              DEFAULT_PORT,
                              FALLBACK_TERM,
                              GUEST_VARIABLE,
                              HOST_KEY_NAME,
                              SERVER_ENV_PASSED_ON,
                              SSHSettings,
                              SSHSetupError,
                              app_command,
                              data_dir,
                              pool_env,
                              records_folder,
                              seats_file,
                              session_env,
                              terminal_type,
)

__all__ = ["AUTH_MODES", "DEFAULT_PORT", "FALLBACK_TERM", "GUEST_VARIABLE", "HOST_KEY_NAME", "SCREEN_NEWS_BYTES",
           "SERVER_ENV_PASSED_ON", "TERMINAL_RESET", "SSHFrontDoor", "SSHSettings", "SSHSetupError", "SessionInfo",
           "WrongPasswordBrake", "app_command", "data_dir", "fresh_password", "load_or_make_host_key", "pool_env",
           "printable", "records_folder", "refusal", "seats_file", "session_env", "set_window_size",
           "terminal_type"]
