"""Photos for the tests: small images made on the spot (with EXIF, in each format taken)."""

from __future__ import annotations

import io

from PIL import Image

GPS_IFD = 0x8825
ORIENTATION = 0x0112


def jpeg_with_location(width: int = 640, height: int = 480) -> bytes:
    """A JPEG whose EXIF names a place (GPS) and a camera."""
    image = Image.new("RGB", (width, height), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[ORIENTATION] = 1
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (45.0, 30.0, 0.0), 3: "W", 4: (73.0, 35.0, 0.0)})
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif)
    return out.getvalue()


def png(width: int = 300, height: int = 200) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), (0, 0, 255, 128)).save(out, format="PNG")
    return out.getvalue()


def heic(width: int = 320, height: int = 240) -> bytes:
    import pillow_heif

    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 10)).save(out, format="HEIF")
    return out.getvalue()


def upload(content: bytes) -> io.BytesIO:
    return io.BytesIO(content)


def png_bomb(side: int = 7_740) -> bytes:
    """A PNG of a few KB that decodes to `side` x `side` pixels (a decompression bomb)."""
    out = io.BytesIO()
    Image.new("1", (side, side)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def jpeg_with_comment(marker: bytes, width: int = 640, height: int = 480) -> bytes:
    """A JPEG carrying `marker` in a comment (COM segment), an ICC profile and XMP."""
    image = Image.new("RGB", (width, height), (30, 30, 200))
    out = io.BytesIO()
    image.save(out, format="JPEG", comment=marker, icc_profile=b"ICC" + marker, xmp=b"<x>" + marker)
    return out.getvalue()


def png_with_text(marker: str, width: int = 300, height: int = 200) -> bytes:
    """A PNG carrying `marker` in a text chunk."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", marker)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (0, 200, 0)).save(out, format="PNG", pnginfo=info)
    return out.getvalue()
