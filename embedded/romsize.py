#!/usr/bin/env python3
"""ROM of a backend in a firmware image: the summed sizes of the text and read-only data
symbols whose demangled names contain one of the given paths (e.g. `groestl::backend::mcu`).

    embedded/romsize.py ELF PATTERN...

With LTO, code of the mode (`engine`) and the backend dispatch is inlined into the functions
named after them; each pattern's total is printed, then the sum.
"""
import subprocess
import sys

elf, patterns = sys.argv[1], sys.argv[2:]
nm = "avr-nm" if elf.endswith(".elf") else "arm-none-eabi-nm"
out = subprocess.run([nm, "-S", "-C", elf], capture_output=True, text=True, check=True).stdout
total = 0
for pat in patterns:
    size = 0
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2].lower() in "ttrr" and pat in parts[3]:
            size += int(parts[1], 16)
    print(f"{pat}: {size}")
    total += size
print(f"total: {total}")
