"""A photo of a machine's score display, made safe to keep and to show.

Words:
- *photo*: what a phone sends: JPEG, PNG or HEIC bytes. It is an image only if Pillow decodes
  it (the name and the Content-Type sent say nothing).
- *clean photo*: the decoded image turned upright (its EXIF orientation applied), shrunk so
  its long side is at most ``PHOTO_LONG_SIDE`` pixels and encoded again as a JPEG with no
  metadata at all: no EXIF, so no location or phone model, nothing of the file sent survives.
- *limits*: ``PHOTO_MAX_MB`` megabytes for one photo as sent, ``PHOTO_MEET_MAX_MB`` for every
  clean photo of one meet together (settings, docs/configuration.md), and `PHOTOS_PER_GAME`.

No database here: `flipwell.league.services.photos` stores what `clean_photo` returns.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from django.core.exceptions import ValidationError
from PIL import Image, ImageOps, UnidentifiedImageError

try:  # HEIC, as iPhones take photos: readable when pillow-heif is installed.
    from pillow_heif import register_heif_opener
except ImportError:  # pragma: no cover - an install without it reads JPEG and PNG only
    pass
else:
    register_heif_opener()

FORMATS = frozenset({"JPEG", "PNG", "HEIF"})
"""The formats a photo may come in, as Pillow names them."""
PHOTOS_PER_GAME = 4
"""Enough for a display shown in parts; more is a mistake or abuse."""
MAX_PIXELS = 60_000_000
"""A photo with more pixels is refused before it is decoded (a decompression bomb)."""
QUALITY = 85


@dataclass(frozen=True)
class CleanPhoto:
    """A clean photo's JPEG bytes and its size in pixels."""

    content: bytes
    width: int
    height: int


def megabytes(size: int) -> str:
    """`size` bytes in megabytes, as people read it ("8 MB", "0.4 MB")."""
    value = size / 1_000_000
    return f"{value:.0f} MB" if value >= 10 or value == int(value) else f"{value:.1f} MB"


def max_photo_bytes() -> int:
    """The largest photo accepted as sent, in bytes (``PHOTO_MAX_MB``)."""
    return int(settings.PHOTO_MAX_MB) * 1_000_000


def max_meet_bytes() -> int:
    """The most the clean photos of one meet may take together, in bytes."""
    return int(settings.PHOTO_MEET_MAX_MB) * 1_000_000


def clean_photo(file: IO[bytes], *, size: int) -> CleanPhoto:
    """The clean photo of `file` (`size` bytes as sent); ValidationError on ``photo`` when it
    is larger than the limit (the message says the limit) or is not a JPEG, PNG or HEIC image
    Pillow can decode."""
    limit = max_photo_bytes()
    if size > limit:
        raise ValidationError(
            {"photo": f"This photo is {megabytes(size)}: at most {megabytes(limit)} per photo."},
            code="photo_too_large",
        )
    image = _decoded(file)
    upright = ImageOps.exif_transpose(image).convert("RGB")
    long_side = int(settings.PHOTO_LONG_SIDE)
    upright.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    # A new image carries no metadata unless asked: no exif=, no icc_profile=, no comment.
    upright.save(out, format="JPEG", quality=QUALITY, optimize=True)
    return CleanPhoto(content=out.getvalue(), width=upright.width, height=upright.height)


def _decoded(file: IO[bytes]) -> Image.Image:
    """The fully decoded image of `file`; ValidationError when it is none we take."""
    not_image = ValidationError(
        {"photo": "This file is not a photo flipwell can read: send a JPEG, PNG or HEIC image."},
        code="not_an_image",
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(file)
            if image.format not in FORMATS:
                raise not_image
            if image.width * image.height > MAX_PIXELS:
                raise ValidationError(
                    {"photo": "This photo has too many pixels: take it again at a lower size."},
                    code="photo_too_large",
                )
            image.load()  # decodes every pixel: a truncated or forged file fails here
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as error:  # fmt: skip
        raise not_image from error
    return image
