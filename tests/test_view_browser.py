"""mbparse view in a real headless browser (Debian's chromium): the page
loads, the model is drawn, a slider moved with the keyboard moves the joint,
and the screenshot shows the model, not a blank canvas."""
from __future__ import annotations

import shutil
import socket
import time
from pathlib import Path

import pytest

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
ACROBOT = CORPUS / "drake" / "examples" / "acrobot" / "Acrobot.urdf"

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser")
                 if shutil.which(n)), None)
CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1280,800",
                  # WebGL on the CPU (SwiftShader), which newer Chromium wants asked for
                  "--enable-unsafe-swiftshader")
PANEL_WIDTH = 360   # viser's control panel, on the right
WAIT_SECONDS = 60   # an upper bound for slow machines, not a measured time

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                       reason="chromium and chromium-driver are not installed "
                              "(apt-get install -y chromium chromium-driver)"),
    pytest.mark.skipif(not ACROBOT.is_file(), reason="the shared corpus is absent"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def colourful_pixels(png: bytes) -> set[tuple[int, int]]:
    """Strongly coloured pixels of the 3-D canvas (the GUI panel, the corner
    notification and the axes gizmo left out): the model, never the white
    background or the grey grid."""
    import io

    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = im.size
    px = im.load()
    out = set()
    for y in range(0, h, 2):
        for x in range(0, w - PANEL_WIDTH, 2):
            if (x < 330 and y < 170) or (x < 90 and y > h - 90):
                continue
            r, g, b = px[x, y]
            if max(r, g, b) - min(r, g, b) > 90:
                out.add((x, y))
    return out


def wait_for(condition, what: str):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def test_view_page_draws_the_model_and_a_slider_moves_it(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from mbparse.loading import LoadOptions
    from mbparse.viewer import Viewer

    viewer = Viewer(str(ACROBOT), LoadOptions(), port=free_port(), watch=False)
    try:
        browser.get(viewer.url)
        sliders = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, '[role="slider"]'),
                           "the joint sliders")
        assert len(sliders) == 2
        assert browser.find_elements(By.TAG_NAME, "canvas")
        before = wait_for(lambda: colourful_pixels(browser.get_screenshot_as_png()),
                          "the model to be drawn")

        shoulder = sliders[0]
        shoulder.click()  # the thumb jumps to where it is clicked: the middle, 0
        for _ in range(25):
            shoulder.send_keys(Keys.ARROW_RIGHT)
        wait_for(lambda: viewer.positions["Acrobot::shoulder"][0] > 0.5,
                 "the server to see the slider move")
        after = wait_for(lambda: (lambda px: px if px and px != before else None)(
            colourful_pixels(browser.get_screenshot_as_png())), "the model to move")
        screenshot = tmp_path / "view.png"
        assert browser.save_screenshot(str(screenshot))
        shown = colourful_pixels(screenshot.read_bytes())
        assert len(shown) > 200, "the screenshot shows no model"
        assert len(before ^ after) > 50, "moving the shoulder did not change the picture"
    finally:
        viewer.close()


MESH_ROBOT = """<robot name="meshes">
  <material name="red"><color rgba="0.9 0.1 0.1 1"/></material>
  <material name="blue"><color rgba="0.1 0.2 0.9 1"/></material>
  <link name="stl_part"><visual><geometry><mesh filename="part.stl"/></geometry>
    <material name="red"/></visual></link>
  <link name="dae_part"><visual><geometry><mesh filename="part.dae"/></geometry>
    <material name="blue"/></visual></link>
  <joint name="a" type="fixed"><parent link="world"/><child link="stl_part"/></joint>
  <joint name="b" type="fixed"><parent link="world"/><child link="dae_part"/>
    <origin xyz="0.4 0 0"/></joint>
</robot>
"""


def test_view_page_draws_stl_and_collada_meshes(browser, tmp_path):
    import trimesh

    from mbparse.loading import LoadOptions
    from mbparse.viewer import Viewer

    box = trimesh.creation.box((0.3, 0.3, 0.3))
    box.export(tmp_path / "part.stl")
    box.export(tmp_path / "part.dae")
    model = tmp_path / "meshes.urdf"
    model.write_text(MESH_ROBOT)
    viewer = Viewer(str(model), LoadOptions(), port=free_port(), watch=False)
    try:
        assert viewer.error is None and viewer.problems == [] and len(viewer.drawn) == 2
        browser.get(viewer.url)
        shown = wait_for(lambda: colourful_pixels(browser.get_screenshot_as_png()),
                         "the meshes to be drawn")
        png = browser.get_screenshot_as_png()
        (tmp_path / "meshes.png").write_bytes(png)
        shown = colourful_pixels(png)
        assert len(shown) > 200, "the screenshot shows no mesh"
        from io import BytesIO

        from PIL import Image
        im = Image.open(BytesIO(png)).convert("RGB")
        colours = [im.getpixel(p) for p in shown]
        assert any(r > 2 * b for r, g, b in colours), "the red STL is not drawn"
        assert any(b > 2 * r for r, g, b in colours), "the blue Collada mesh is not drawn"
    finally:
        viewer.close()
