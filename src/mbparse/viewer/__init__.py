"""``mbparse view``: the model in a browser, drawn with viser (three.js).

Needs the optional dependencies ``viser`` and ``trimesh``
(``pip install 'mbparse[view]'``); nothing here is imported until the
viewer starts.
"""
from .app import Viewer

__all__ = ["Viewer"]
