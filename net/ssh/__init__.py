"""The SSH front door, its names where the rest of the tree imports them."""

from net.ssh.door import (
                          AUTH_MODES,
                          DEFAULT_PORT,
                          FALLBACK_TERM,
                          GUEST_VARIABLE,
                          HOST_KEY_NAME,
                          SCREEN_NEWS_BYTES,
                          SERVER_ENV_PASSED_ON,
                          TERMINAL_RESET,
                          SessionInfo,
                          SSHFrontDoor,
                          SSHSettings,
                          SSHSetupError,
                          WrongPasswordBrake,
                          app_command,
                          data_dir,
                          pool_env,
                          printable,
                          records_folder,
                          seats_file,
                          session_env,
                          set_window_size,
                          terminal_type,
)

__all__ = ["AUTH_MODES", "DEFAULT_PORT", "FALLBACK_TERM", "GUEST_VARIABLE", "HOST_KEY_NAME", "SCREEN_NEWS_BYTES",
           "SERVER_ENV_PASSED_ON", "TERMINAL_RESET", "SSHFrontDoor", "SSHSettings", "SSHSetupError", "SessionInfo",
           "WrongPasswordBrake", "app_command", "data_dir", "pool_env", "printable", "records_folder", "seats_file",
           "session_env", "set_window_size", "terminal_type"]
