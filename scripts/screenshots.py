"""Drive the real app on the demo workspace headlessly and write the README's SVGs.

    python scripts/screenshots.py [--out screenshots]

Every picture comes from the running app (Textual's ``save_screenshot``), never drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The scenes live with the snapshot tests; import them as pytest does (tests/ on the path).
sys.path.insert(0, os.path.join(REPO, "tests"))
from tui.scenes import SCENES, build_app, prepare_demo, settle, size_of


async def shoot(scene: str, out_dir: str, base: str) -> str:
    demo = prepare_demo(base)
    app = build_app(scene, demo)
    path = os.path.join(out_dir, f"{scene}.svg")
    async with app.run_test(size=size_of(scene)) as pilot:
        await settle(pilot, scene)
        app.save_screenshot(filename=os.path.basename(path), path=out_dir)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", default=os.path.join(os.path.dirname(os.path.dirname(__file__)), "screenshots")
    )
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="paw-tui-screenshots-") as home:
        # The pictures show paths under ~, the same on every machine.
        os.environ["HOME"] = home
        os.environ["PAW_CONFIG_DIR"] = os.path.join(home, "config")  # default keys and theme
        for scene in SCENES:
            print(asyncio.run(shoot(scene, options.out, os.path.join(home, "demo"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
