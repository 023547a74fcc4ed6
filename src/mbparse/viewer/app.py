"""The browser viewer: a viser server showing one model file.

The model's visual geometry is drawn on its bodies; each movable joint
coordinate gets a slider that moves the bodies (forward kinematics by the
plant; a joint without limits gets a slider over a range that says so);
body and joint frames can be shown on demand; the file (and the files it
includes) is watched and reloaded when it changes, keeping the slider
positions of joints that still exist. The panel says what is not drawn: mesh
files that were missing or unreadable, MJCF skins, composites and height
fields, and bodies with only collision geometry (as MJCF geoms in groups 3
to 5, which MuJoCo's viewer hides), whose collision geometry stands in.
"""
from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass

from ..diagnostics import ParseError
from ..loading import LoadOptions, load
from ..limits import call_with_limits
from ..plant import ModelError
from .shapes import add_shape, geometry_rgba, pose_args

FLOATING = ("quaternion_floating", "rpy_floating")
TRANSLATIONS = {"prismatic": (0,), "planar": (0, 1)}
COLLISION_RGBA = (0.95, 0.55, 0.2, 0.6)  # collision geometry shown on demand
STAND_IN_RGBA = (0.72, 0.76, 0.84, 1.0)  # collision geometry standing in for a visual
# Slider spans of a coordinate without limits: radians, or metres for translations.
UNLIMITED_ANGLE = math.pi
UNLIMITED_TRANSLATION = 1.0
# Load warnings whose geometry is not in the model (a mesh file missing or
# unreadable, a package not found), and MJCF elements read without drawing.
LEFT_OUT_CODES = frozenset({"mesh-missing", "mesh-unreadable", "file-missing",
                            "package-unknown", "path-escapes-package"})
UNDRAWN_ELEMENTS = frozenset({"skin", "hfield", "composite", "flexcomp", "flex", "texture"})
PANEL_ITEMS = 5  # lines of each list shown in the panel


@dataclass
class JointSlider:
    """One slider: coordinate ``index`` of the joint ``joint`` (scoped name)."""

    joint: str
    index: int
    handle: object


def _sanitize(name: str) -> str:
    return name.replace("::", ".").replace("/", "_").replace(" ", "_")


def is_translation(joint, i: int) -> bool:
    """Whether coordinate ``i`` of ``joint`` is a length (else an angle)."""
    return i in TRANSLATIONS.get(joint.type_name, ())


def slider_range(joint, i: int) -> tuple[float, float]:
    """The slider's range for coordinate ``i``: the joint's limits, with an
    unlimited side clamped to ±π (angles) or ±1 m (lengths) around zero."""
    lo, up = joint.pos_lower[i], joint.pos_upper[i]
    span = UNLIMITED_TRANSLATION if is_translation(joint, i) else UNLIMITED_ANGLE
    if not math.isfinite(lo):
        lo = -span if not math.isfinite(up) else min(up - 2 * span, -span)
    if not math.isfinite(up):
        up = max(lo + 2 * span, span)
    if up <= lo:
        up = lo + 1e-6
    return lo, up


def is_unlimited(joint, i: int) -> bool:
    """Whether coordinate ``i`` of ``joint`` lacks a lower or an upper limit."""
    return not (math.isfinite(joint.pos_lower[i]) and math.isfinite(joint.pos_upper[i]))


def not_drawn_notes(warnings) -> list[str]:
    """The load warnings that mean something is not drawn, as panel lines."""
    notes = []
    for d in warnings:
        if d.code in LEFT_OUT_CODES or (d.element in UNDRAWN_ELEMENTS and d.severity == "warning"):
            where = f"{os.path.basename(d.file)}:{d.line}: " if d.file and d.line else ""
            notes.append(where + d.message.split(" [Drake refuses this")[0])
    return notes


def _listed(title: str, items: list[str]) -> str:
    more = len(items) - PANEL_ITEMS
    lines = [f"- {item}" for item in items[:PANEL_ITEMS]]
    if more > 0:
        lines.append(f"- and {more} more")
    return f"\n\n{title}\n" + "\n".join(lines)


class Viewer:
    """Serves a model file at ``http://host:port``; see the module docstring."""

    def __init__(self, path: str, options: LoadOptions | None = None, host: str = "127.0.0.1",
                 port: int = 8080, watch: bool = True, poll_seconds: float = 0.5):
        import viser

        self.path = path
        self.options = options or LoadOptions()
        self.host, self.port = host, port
        self.server = viser.ViserServer(host=host, port=port, verbose=False,
                                        label=f"mbparse view · {os.path.basename(path)}")
        self.server.scene.set_up_direction("+z")
        self._lock = threading.RLock()
        self._plant = None
        self._body_nodes: dict[int, object] = {}
        self._frame_nodes: list[tuple[str, object]] = []
        self._collision_nodes: list[tuple[int, object]] = []
        self._undrawn_bodies: set[int] = set()
        self._scene_handles: list[object] = []
        self._sliders: list[JointSlider] = []
        self._joint_folder = None
        self.positions: dict[str, list[float]] = {}
        self.generation = 0
        self.error: str | None = None
        self.problems: list[str] = []  # visuals that could not be drawn, with the reason
        self.not_drawn: list[str] = []  # what the loaded model leaves out, from its warnings
        self.stand_ins: list[str] = []  # bodies drawn by their collision geometry
        self.drawn: list[str] = []  # names of the visual geometries drawn
        self.unlimited: list[str] = []  # slider labels clamped for want of limits
        self._watched: dict[str, float] = {}
        self._build_controls()
        self.reload()
        self._stop = threading.Event()
        self._watcher = None
        if watch:
            self._watcher = threading.Thread(target=self._watch, args=(poll_seconds,),
                                             name="mbparse-view-watch", daemon=True)
            self._watcher.start()

    @property
    def url(self) -> str:
        host = "localhost" if self.host in ("0.0.0.0", "127.0.0.1", "") else self.host
        return f"http://{host}:{self.server.get_port()}"

    # ------------------------------------------------------------ controls
    def _build_controls(self) -> None:
        gui = self.server.gui
        self._status = gui.add_markdown("Loading…")
        with gui.add_folder("Frames"):
            self._show_bodies = gui.add_checkbox("Body frames", False)
            self._show_frames = gui.add_checkbox("All frames", False)
        with gui.add_folder("Geometry"):
            self._show_collision = gui.add_checkbox("Collision geometry", False)
        self._show_collision.on_update(lambda _: self._update_frame_visibility())
        self._show_bodies.on_update(lambda _: self._update_frame_visibility())
        self._show_frames.on_update(lambda _: self._update_frame_visibility())
        reload_button = gui.add_button("Reload")
        reload_button.on_click(lambda _: self.reload())

    def _update_frame_visibility(self) -> None:
        with self._lock:
            for body, handle in self._collision_nodes:
                # A body whose visual could not be drawn shows its collision
                # geometry as a stand-in.
                handle.visible = self._show_collision.value or body in self._undrawn_bodies
            for kind, handle in self._frame_nodes:
                handle.visible = (self._show_bodies.value if kind == "body"
                                  else self._show_frames.value)

    # ------------------------------------------------------------ loading
    def reload(self) -> bool:
        """Reads the file again; on failure the old scene stays and the
        error is shown. Returns True when the model was (re)loaded. (Meshes
        are read under the options' size limits, whichever thread reloads.)"""
        return call_with_limits(self.options.size_limits, self._reload)

    def _reload(self) -> bool:
        with self._lock:
            self._remember_mtimes([self.path])
            try:
                loaded = load(self.path, self.options)
            except ParseError as e:
                self.error = str(e)
                self._status.content = f"**Cannot load** `{os.path.basename(self.path)}`:\n\n" \
                                       f"```\n{e}\n```"
                return False
            except (ModelError, OSError, ValueError) as e:
                self.error = f"{type(e).__name__}: {e}"
                self._status.content = f"**Cannot load**: {self.error}"
                return False
            self.error = None
            self._plant = loaded.plant
            self.not_drawn = not_drawn_notes(loaded.warnings)
            self._clear()
            self._build_scene()
            self._build_sliders()
            self._apply_positions()
            self._update_frame_visibility()
            sg = loaded.plant.scene_graph
            sources = [g.instance.source[0] for g in sg.geometries()] if sg else []
            self._remember_mtimes([self.path, *[s for s in sources if s]])
            self.generation += 1
            plant = loaded.plant
            self._status.content = self.panel_text()
            return True

    def panel_text(self) -> str:
        """The panel's Markdown: what is drawn, and what is not and why."""
        plant = self._plant
        text = (f"**{os.path.basename(self.path)}** — {plant.num_bodies() - 1} bodies, "
                f"{sum(1 for j in plant.joints() if not j.is_ephemeral)} joints")
        if self.problems:
            text += _listed("Not drawn (collision geometry stands in):", self.problems)
        if self.not_drawn:
            text += _listed("Not drawn (left out of the model):", self.not_drawn)
        if self.stand_ins:
            text += _listed("Drawn by their collision geometry (no visual geometry, as MJCF "
                            "geoms in groups 3-5, which MuJoCo's viewer hides):", self.stand_ins)
        if self.unlimited:
            text += (f"\n\n{len(self.unlimited)} slider(s) of joints without limits: a side "
                     "without a limit ends at ±π rad (±1 m for translations), or a full "
                     "span beyond the other limit: "
                     + ", ".join(self.unlimited[:PANEL_ITEMS])
                     + (" …" if len(self.unlimited) > PANEL_ITEMS else ""))
        return text

    def _clear(self) -> None:
        for handle in self._scene_handles:
            try:
                handle.remove()
            except Exception:  # already removed with its parent
                pass
        self._scene_handles.clear()
        self._body_nodes.clear()
        self._frame_nodes.clear()
        self._collision_nodes.clear()
        for s in self._sliders:
            s.handle.remove()
        self._sliders.clear()
        if self._joint_folder is not None:
            self._joint_folder.remove()
            self._joint_folder = None

    def _build_scene(self) -> None:
        plant, scene = self._plant, self.server.scene
        self.problems = []
        poses = plant.calc_body_poses_in_world()
        for body in plant.bodies():
            node = scene.add_frame(f"/model/{_sanitize(plant.scoped_name(body))}",
                                   show_axes=False, **pose_args(poses[body.index]))
            self._body_nodes[body.index] = node
            self._scene_handles.append(node)
            axes = scene.add_frame(f"{node.name}/body_frame", axes_length=0.1,
                                   axes_radius=0.004, visible=False)
            self._frame_nodes.append(("body", axes))
        for frame in plant.frames():
            if frame.is_body_frame:
                continue
            parent = self._body_nodes[frame.body.index]
            axes = scene.add_frame(f"{parent.name}/{_sanitize(frame.name)}", axes_length=0.06,
                                   axes_radius=0.003, visible=False, **pose_args(frame.X_BF))
            self._frame_nodes.append(("frame", axes))
        sg = plant.scene_graph
        self._undrawn_bodies = set()
        self.stand_ins = []
        self.drawn = []
        collisions = []
        for g in sg.geometries() if sg else []:
            if g.has_role("proximity") and not (g.has_role("illustration")
                                                or g.has_role("perception")):
                collisions.append(g)
                continue
            parent = self._body_nodes[g.body]
            try:
                add_shape(scene, f"{parent.name}/g{g.id}", g.shape, g.X_BG, geometry_rgba(g))
                self.drawn.append(g.name)
            except Exception as e:  # an unreadable mesh must not stop the rest
                self.problems.append(f"{g.name}: {e}")
                self._undrawn_bodies.add(g.body)
        # A body with collision geometry but no visual one is drawn by its
        # collision geometry rather than not at all.
        visual_bodies = {g.body for g in sg.geometries() if g.has_role("illustration")
                         or g.has_role("perception")} if sg else set()
        for body in sorted({g.body for g in collisions} - visual_bodies):
            if body != 0:
                self._undrawn_bodies.add(body)
                self.stand_ins.append(plant.scoped_name(plant.get_body(body)))
        for g in collisions:
            parent = self._body_nodes[g.body]
            try:
                rgba = STAND_IN_RGBA if g.body in self._undrawn_bodies else COLLISION_RGBA
                handle = add_shape(scene, f"{parent.name}/c{g.id}", g.shape, g.X_BG, rgba)
            except Exception as e:
                self.problems.append(f"{g.name}: {e}")
                continue
            self._collision_nodes.append((g.body, handle))
        self._aim_camera(poses)

    def _aim_camera(self, poses) -> None:
        """Points the initial camera at the model, from the front right."""
        points = [X.p for X in poses[1:]] or [(0.0, 0.0, 0.0)]
        sg = self._plant.scene_graph
        for g in sg.geometries() if sg else []:
            if g.body != 0 and g.shape.type_name != "HalfSpace":
                points.append((poses[g.body] @ g.X_BG).p)
        lo = [min(p[i] for p in points) for i in range(3)]
        hi = [max(p[i] for p in points) for i in range(3)]
        center = tuple((a + b) / 2 for a, b in zip(lo, hi))
        radius = max(0.3, 0.5 * math.dist(lo, hi) + 0.15)
        grid = self.server.scene.add_grid("/grid", width=max(2.0, 4 * radius),
                                          height=max(2.0, 4 * radius), plane="xy",
                                          position=(center[0], center[1], 0.0))
        self._scene_handles.append(grid)
        camera = self.server.initial_camera
        camera.look_at = center
        camera.position = (center[0] + 1.25 * radius, center[1] - 1.25 * radius,
                           center[2] + 0.6 * radius)

    def _build_sliders(self) -> None:
        plant, gui = self._plant, self.server.gui
        movable = [j for j in plant.joints() if j.nq > 0 and j.type_name not in FLOATING]
        self._joint_folder = gui.add_folder("Joints")
        old, self.positions = self.positions, {}
        self.unlimited = []
        with self._joint_folder:
            for joint in movable:
                scoped = plant.scoped_name(joint)
                q = list(old.get(scoped, joint.default_positions))
                if len(q) != joint.nq:
                    q = list(joint.default_positions)
                self.positions[scoped] = q
                for i in range(joint.nq):
                    lo, up = slider_range(joint, i)
                    q[i] = min(max(q[i], lo), up)
                    label = joint.name if joint.nq == 1 else f"{joint.name}[{i}]"
                    hint = f"{scoped} ({joint.type_name})"
                    if is_unlimited(joint, i):
                        self.unlimited.append(label)
                        hint += (f"; no limit: the slider spans {lo:.3g} to {up:.3g} "
                                 f"{'m' if is_translation(joint, i) else 'rad'}")
                    handle = gui.add_slider(label, min=lo, max=up, step=(up - lo) / 200,
                                            initial_value=q[i], hint=hint)
                    handle.on_update(self._slider_callback(scoped, i))
                    self._sliders.append(JointSlider(scoped, i, handle))

    def _slider_callback(self, scoped: str, i: int):
        def on_update(event) -> None:
            self.set_position(scoped, i, float(event.target.value))
        return on_update

    # ------------------------------------------------------------ motion
    def set_position(self, joint: str, index: int, value: float) -> None:
        """Sets coordinate ``index`` of joint ``joint`` (scoped name) and
        moves the bodies."""
        with self._lock:
            if joint not in self.positions:
                raise KeyError(f"no movable joint named '{joint}'")
            self.positions[joint][index] = value
            self._apply_positions()

    def _apply_positions(self) -> None:
        poses = self._plant.calc_body_poses_in_world(self.positions)
        with self.server.atomic():
            for index, node in self._body_nodes.items():
                args = pose_args(poses[index])
                node.wxyz, node.position = args["wxyz"], args["position"]

    # ------------------------------------------------------------ watching
    def _remember_mtimes(self, files: list[str]) -> None:
        self._watched = {f: _mtime(f) for f in dict.fromkeys(files)}

    def changed(self) -> bool:
        """Whether a watched file changed since it was last read."""
        return any(_mtime(f) != t for f, t in self._watched.items())

    def _watch(self, poll_seconds: float) -> None:
        while not self._stop.wait(poll_seconds):
            if self.changed():
                self.reload()

    def close(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        self.server.stop()


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1.0
