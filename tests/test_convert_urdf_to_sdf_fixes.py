"""URDF to SDFormat (libsdformat's conversion): never NaN, never an empty
model with success."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse.convert import urdf_to_sdf
from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.loss import ConvertError

DATA = Path(__file__).parent / "data" / "convert"


def test_lumping_a_link_without_inertial_and_a_massless_child_gives_no_nan():
    text = urdf_to_sdf(DATA / "lumped_massless.urdf")
    assert "nan" not in text.lower() and "inf" not in text.lower()
    assert "<mass>2</mass>" in text


def test_a_massless_root_is_an_error_not_an_empty_model(capsys):
    with pytest.raises(ConvertError, match="empty"):
        convert_file(str(DATA / "massless_root.urdf"), "sdf", None,
                     ConvertFileOptions(libsdformat=True))
    assert main(["convert", str(DATA / "massless_root.urdf"), "--to", "sdf",
                 "--libsdformat"]) == 1
    assert "without --libsdformat" in capsys.readouterr().err


@pytest.mark.parametrize("options", [ConvertFileOptions(), ConvertFileOptions(via_model=True),
                                     ConvertFileOptions(libsdformat=True, via_model=True)],
                         ids=["default", "via_model", "via_model_wins"])
def test_the_default_keeps_every_link_of_a_massless_root(options):
    result = convert_file(str(DATA / "massless_root.urdf"), "sdf", None, options)
    assert "<link name=\"link_0\">" in result.text and "<link name=\"link_1\">" in result.text
