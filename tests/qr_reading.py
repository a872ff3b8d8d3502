"""A QR code read back off the screen, as a phone's camera would: the half blocks turned into modules,
the modules into a picture, the picture read by zbar's ``zbarimg`` (Debian's zbar-tools)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

from tui.qr_picture import read_picture

#: Pixels a module: a camera's picture of a terminal is far coarser than one pixel a module.
PIXELS = 6


def zbar_missing() -> str | None:
    return None if shutil.which("zbarimg") else "zbarimg is not installed (apt install zbar-tools)"


def read_qr(lines: list[str]) -> str:
    """What zbar reads in the picture drawn by ``lines`` of half blocks ("" if it reads nothing)."""
    rows = read_picture(lines)
    width, height = len(rows[0]) * PIXELS, len(rows) * PIXELS
    bitmap = [" ".join("1" if dark else "0" for dark in row for _ in range(PIXELS)) for row in rows
              for _ in range(PIXELS)]
    with tempfile.NamedTemporaryFile("w", suffix=".pbm") as picture:
        picture.write(f"P1\n{width} {height}\n" + "\n".join(bitmap) + "\n")
        picture.flush()
        done = subprocess.run(["zbarimg", "--raw", "-q", picture.name], capture_output=True, text=True)
    return done.stdout.strip()
