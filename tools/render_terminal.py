#!/usr/bin/env python3
"""Render a command's text output as a terminal-like PNG (for the README).

Usage: python tools/render_terminal.py OUT.png -- COMMAND...
Needs Debian's chromium (headless screenshot).
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile


def colour(line: str) -> str:
    line = html.escape(line)
    line = re.sub(r"\berror:", '<b style="color:#e05252">error:</b>', line)
    line = re.sub(r"\bwarning:", '<b style="color:#e5b545">warning:</b>', line)
    if line.lstrip().startswith("hint:"):
        return f'<span style="color:#999">{line}</span>'
    return re.sub(r"^(\S+:\d+(?::\d+)?:)", r"<b>\1</b>", line)


def main() -> int:
    out, sep, *command = sys.argv[1:]
    assert sep == "--"
    proc = subprocess.run(command, capture_output=True, text=True)
    lines = [f'<span style="color:#7aa2f7">$ {html.escape(" ".join(command))}</span>']
    lines += [colour(l) for l in proc.stdout.splitlines()]
    width = 9 * max(len(l) for l in [" ".join(command)] + proc.stdout.splitlines()) + 40
    height = 19 * len(lines) + 30
    page = ('<html><body style="margin:0;background:#1e1e1e"><pre style="color:#ddd;'
            'font:14px/19px DejaVu Sans Mono,monospace;padding:10px;margin:0">'
            + "\n".join(lines) + "</pre></body></html>")
    with tempfile.TemporaryDirectory() as tmp:
        page_path = os.path.join(tmp, "page.html")
        with open(page_path, "w") as f:
            f.write(page)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--no-first-run", f"--user-data-dir={tmp}/profile",
                        f"--window-size={width},{height}", f"--screenshot={os.path.abspath(out)}",
                        f"file://{page_path}"], check=True, capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
