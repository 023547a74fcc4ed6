"""inspect, check and convert over several files with -j: one JSON line per file, in order."""
from __future__ import annotations

import json

from mbparse.cli import main

URDF = """<robot name="{name}">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


def _files(tmp_path, n=5, broken=2):
    paths = []
    for i in range(n):
        p = tmp_path / f"m{i}.urdf"
        p.write_text("<robot name='x'><link" if i == broken else URDF.format(name=f"r{i}"))
        paths.append(str(p))
    return paths


def _lines(capsys):
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_inspect_json_with_two_jobs_streams_one_line_per_file_in_order(tmp_path, capsys):
    files = _files(tmp_path)
    assert main(["inspect", "--json", "-j", "2", *files]) == 1
    many = _lines(capsys)
    assert [line["file"] for line in many] == files
    assert "error" in many[2] and "not well-formed" in many[2]["error"]
    assert many[0]["model_instances"] == ["r0"]
    assert main(["inspect", "--json", "-j", "1", *files]) == 1
    assert _lines(capsys) == many


def test_inspect_text_with_two_jobs_prints_each_outline_in_order(tmp_path, capsys):
    files = _files(tmp_path, broken=-1)
    assert main(["inspect", "-j", "2", *files]) == 0
    out = capsys.readouterr().out
    starts = [out.index(f + "\n") for f in files]
    assert starts == sorted(starts)


def test_check_jsonl_streams_each_files_findings_in_order(tmp_path, capsys):
    files = _files(tmp_path)
    assert main(["check", "--format", "jsonl", "-j", "2", *files]) == 1
    lines = _lines(capsys)
    assert [line["file"] for line in lines] == files
    assert lines[2]["counts"]["error"] >= 1
    assert lines[0]["counts"]["error"] == 0


def test_check_json_report_is_the_same_with_one_or_two_jobs(tmp_path, capsys):
    files = _files(tmp_path)
    main(["check", "--format", "json", "-j", "1", *files])
    one = json.loads(capsys.readouterr().out)
    main(["check", "--format", "json", "-j", "2", *files])
    assert json.loads(capsys.readouterr().out) == one


def test_convert_several_files_writes_a_folder_and_one_report_line_each(tmp_path, capsys):
    files = _files(tmp_path)
    (tmp_path / "sub").mkdir()
    twin = tmp_path / "sub" / "m0.urdf"
    twin.write_text(URDF.format(name="twin"))
    out = tmp_path / "out"
    assert main(["convert", "--to", "sdf", "-j", "2", "-o", str(out), *files, str(twin)]) == 1
    lines = _lines(capsys)
    assert [line["file"] for line in lines] == [*files, str(twin)]
    assert [line["status"] for line in lines] == ["ok", "ok", "error", "ok", "ok", "ok"]
    assert lines[0]["output"] != lines[-1]["output"]  # same stem, two outputs
    assert "<sdf" in (out / "m0.sdf").read_text()
    assert (out / "m0_2.sdf").exists()


def test_convert_several_files_without_an_output_folder_is_refused(tmp_path, capsys):
    files = _files(tmp_path, broken=-1)
    assert main(["convert", "--to", "sdf", *files]) == 2
    assert "-o FOLDER" in capsys.readouterr().err


def test_convert_several_files_to_mjcf_names_outputs_by_the_target_suffix(tmp_path, capsys):
    files = _files(tmp_path, n=2, broken=-1)
    out = tmp_path / "mj"
    assert main(["convert", "--to", "mjcf", "-j", "1", "-o", str(out), *files]) == 0
    lines = _lines(capsys)
    assert [line["output"] for line in lines] == [str(out / "m0.xml"), str(out / "m1.xml")]
    assert all("losses" in line for line in lines)


def test_convert_several_files_refuse_one_report_file(tmp_path, capsys):
    files = _files(tmp_path, n=2, broken=-1)
    assert main(["convert", "--to", "sdf", "-o", str(tmp_path / "o"), "--report",
                 str(tmp_path / "r.json"), *files]) == 2
    assert "--report" in capsys.readouterr().err


def test_inspect_json_of_a_model_larger_than_one_written_piece_is_its_summary_whole(tmp_path,
                                                                                     capsys):
    from mbparse.commands.batching import _WRITE_PIECE
    from mbparse.loading import load
    from mbparse.summary import summarize

    links = "".join(f"<link name='l{i}'/>" for i in range(400))
    joints = "".join(f"<joint name='j{i}' type='fixed'><parent link='l{i - 1}'/>"
                     f"<child link='l{i}'/><origin xyz='0 0 {i}'/></joint>" for i in range(1, 400))
    path = tmp_path / "long.urdf"
    path.write_text(f"<robot name='long'>{links}{joints}</robot>")
    assert main(["inspect", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert len(out) > 2 * _WRITE_PIECE and out.endswith("}\n") and out.count("\n") == 1
    loaded = load(str(path))
    assert json.loads(out) == {**summarize(loaded.plant, loaded.parser, loaded.instances),
                               "file": str(path)}
