"""memory.collector_paused: the cyclic collector off inside, as it was after."""
import gc

import pytest

from mbparse.memory import collector_paused


def test_collector_paused_inside_and_enabled_again_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collector_enabled_again_after_an_exception():
    with pytest.raises(KeyError):
        with collector_paused():
            raise KeyError("x")
    assert gc.isenabled()


def test_collector_left_off_when_it_was_off_before_and_nesting_keeps_it_off():
    gc.disable()
    try:
        with collector_paused():
            with collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
