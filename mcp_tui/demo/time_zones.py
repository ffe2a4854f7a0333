"""The IANA time zone names the demo offers in a long single-select (filter-as-you-type).

A real list of about 400-500 names, from the system's time zone database through ``zoneinfo``.
Some systems have none (a slim container without ``/usr/share/zoneinfo`` and without the
``tzdata`` package): then a built-in list of common zones is used, so the demo's form is always
long enough to show filtering and always contains its default.
"""

from __future__ import annotations

import zoneinfo
from typing import Final

#: The default of the demo's field (London: the demo's user is Ada Lovelace).
DEFAULT_TIME_ZONE: Final = "Europe/London"

#: Regions of the canonical ``Area/Location`` names (the legacy ``US/...``, ``Etc/GMT+5`` and
#: single-word aliases like ``Poland`` are left out: they duplicate these).
AREAS: Final = frozenset(
    {
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
    }
)

#: Used when the system has no time zone database; always includes the demo's default.
FALLBACK: Final[tuple[str, ...]] = (
    "Africa/Cairo",
    "Africa/Casablanca",
    "Africa/Johannesburg",
    "Africa/Lagos",
    "Africa/Nairobi",
    "America/Anchorage",
    "America/Argentina/Buenos_Aires",
    "America/Bogota",
    "America/Chicago",
    "America/Denver",
    "America/Halifax",
    "America/Lima",
    "America/Los_Angeles",
    "America/Mexico_City",
    "America/New_York",
    "America/Phoenix",
    "America/Santiago",
    "America/Sao_Paulo",
    "America/St_Johns",
    "America/Toronto",
    "America/Vancouver",
    "Antarctica/McMurdo",
    "Asia/Bangkok",
    "Asia/Dhaka",
    "Asia/Dubai",
    "Asia/Hong_Kong",
    "Asia/Jakarta",
    "Asia/Jerusalem",
    "Asia/Karachi",
    "Asia/Kathmandu",
    "Asia/Kolkata",
    "Asia/Manila",
    "Asia/Seoul",
    "Asia/Shanghai",
    "Asia/Singapore",
    "Asia/Taipei",
    "Asia/Tehran",
    "Asia/Tokyo",
    "Atlantic/Azores",
    "Atlantic/Reykjavik",
    "Australia/Adelaide",
    "Australia/Brisbane",
    "Australia/Perth",
    "Australia/Sydney",
    "Europe/Amsterdam",
    "Europe/Athens",
    "Europe/Berlin",
    "Europe/Brussels",
    "Europe/Dublin",
    "Europe/Helsinki",
    "Europe/Istanbul",
    "Europe/Kyiv",
    "Europe/Lisbon",
    "Europe/London",
    "Europe/Madrid",
    "Europe/Moscow",
    "Europe/Oslo",
    "Europe/Paris",
    "Europe/Prague",
    "Europe/Rome",
    "Europe/Stockholm",
    "Europe/Vienna",
    "Europe/Warsaw",
    "Europe/Zurich",
    "Indian/Maldives",
    "Indian/Mauritius",
    "Pacific/Auckland",
    "Pacific/Fiji",
    "Pacific/Honolulu",
    "Pacific/Tongatapu",
    "UTC",
)

#: Fewer canonical names than this means a broken or partial database: use :data:`FALLBACK`.
MIN_SYSTEM_ZONES: Final = len(FALLBACK)


def time_zones() -> list[str]:
    """``UTC`` then the canonical ``Area/Location`` names, sorted; :data:`FALLBACK` if the
    system's database is missing, partial or lacks the default."""
    try:
        available = zoneinfo.available_timezones()
    except Exception:  # an unreadable database is the same as none for a demo
        available = set()
    zones = sorted(name for name in available if name.split("/", 1)[0] in AREAS)
    if len(zones) < MIN_SYSTEM_ZONES or DEFAULT_TIME_ZONE not in zones:
        zones = sorted(name for name in FALLBACK if name != "UTC")
    return ["UTC", *zones]
