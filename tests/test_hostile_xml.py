"""XML text that made the reader slow or echoed too much: many comments
before the root with an undeclared namespace prefix (each re-parse used to
copy the text once per comment), and messages quoting huge values."""
from __future__ import annotations

from mbparse.diagnostics import Diagnostic
from mbparse.formats.common.xml import parse_xml_bytes


def test_many_comments_before_the_root_with_an_undeclared_prefix_parse_with_lines():
    text = ('<?xml version="1.0"?>\n' + "<!-- a comment -->\n" * 20000
            + '<robot name="r">\n<link name="a"><drake:x/></link></robot>\n')
    root, problem, line = parse_xml_bytes(text.encode())
    assert problem == "" and root is not None
    (x,) = [el for el in root.iter() if isinstance(el.tag, str) and el.tag.endswith("x")]
    assert x.sourceline == 20003 and x.prefix == "drake"


def test_a_message_quoting_a_megabyte_is_cut_short():
    d = Diagnostic("error", "attribute 'xyz' should be 3 numbers, not '" + "9" * 10**6 + "'")
    assert len(d.message) < 300 and "1000000 characters" in d.message
