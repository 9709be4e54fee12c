"""Jupyter kernels that start without ipykernel's "running over TCP without encryption" warning.

ipykernel 7 logs that warning from ``IPKernelApp.init_sockets`` (``ipykernel/kernelapp.py``)
whenever its transport is ``tcp`` and the kernel manager gave it no CurveZMQ key: once per
kernel, on the terminal that started it. Every entry point of this project that starts
kernels asks for another transport instead of filtering the text:

* Linux and macOS: ``KernelManager.transport = "ipc"``: Unix sockets in Jupyter's runtime
  folder (only this user may open them; nothing listens on the network). Their path prefix
  ``KernelManager.ip`` is given as an absolute path: jupyter_client's default is the
  relative ``kernel-ipc`` whenever it is read before the connection file is named (nbclient
  does), and a kernel started in ``notebooks/`` would then bind its sockets there while the
  client looks for them in the caller's folder.
* Windows (ZeroMQ has no IPC there): ``KernelManager.transport_encryption = "auto"``:
  jupyter_client hands the kernel CurveZMQ keys, so TCP is encrypted (where pyzmq has
  CurveZMQ; otherwise nothing changes and the warning stays).

Use it as traitlets settings (``NotebookClient(nb, config=kernel_config())``; nbclient's
``ExecutePreprocessor`` and JupyterLab's kernel managers read the same section) or as
command-line flags (``jupyter nbconvert --execute $(python tools/quiet_kernels.py) ...``).
nbval's kernels need nothing: nbval sends their stderr to ``os.devnull``.

>>> kernel_settings("linux", runtime_dir="/run/j")["KernelManager"]["transport"]
'ipc'
>>> command_line_flags("darwin", runtime_dir="/run/j")[1].startswith("--KernelManager.ip=/run/j/")
True
"""

import os
import sys

__all__ = ["command_line_flags", "kernel_config", "kernel_settings"]


def kernel_settings(platform=sys.platform, runtime_dir=None):
    """The ``{"KernelManager": {...}}`` settings that start a quiet kernel on ``platform``.

    ``runtime_dir``: where the IPC sockets go (default: Jupyter's runtime folder); each
    kernel's sockets are ``<runtime_dir>/kernel-<this pid>-ipc-<N>``, removed at shutdown.
    """
    if platform != "win32":
        if runtime_dir is None:
            from jupyter_core.paths import jupyter_runtime_dir

            runtime_dir = jupyter_runtime_dir()
            os.makedirs(runtime_dir, mode=0o700, exist_ok=True)
        prefix = os.path.join(os.path.abspath(runtime_dir), f"kernel-{os.getpid()}-ipc")
        return {"KernelManager": {"transport": "ipc", "ip": prefix}}
    import zmq

    if zmq.has("curve"):
        return {"KernelManager": {"transport_encryption": "auto"}}
    return {}


def kernel_config(platform=sys.platform, runtime_dir=None):
    """:func:`kernel_settings` as a traitlets ``Config`` (for nbclient's ``NotebookClient``)."""
    from traitlets.config import Config

    return Config(kernel_settings(platform, runtime_dir))


def command_line_flags(platform=sys.platform, runtime_dir=None):
    """:func:`kernel_settings` as flags for ``jupyter nbconvert`` or ``jupyter lab``."""
    return [f"--{section}.{name}={value}"
            for section, values in kernel_settings(platform, runtime_dir).items()
            for name, value in values.items()]


if __name__ == "__main__":
    print(" ".join(command_line_flags()))
