"""The ``mbsummary/1`` JSON summary of a parsed model (see docs/SUMMARY_SCHEMA.md)."""
from __future__ import annotations

import itertools
import struct
from typing import Iterator

from .geometry.properties import ROLES, summarize_property_value
from .memory import collector_paused
from .parser import Parser
from .plant import MultibodyPlant
from .spatial import RigidTransform

SCHEMA = "mbsummary/1"


def num(v: float):
    v = float(v)
    if v - v == 0.0:  # finite
        return v
    if v != v:
        return "nan"
    return "inf" if v > 0 else "-inf"


def vec(values) -> list:
    if not isinstance(values, (list, tuple)):
        values = list(values)
    total = sum(values)
    if total - total == 0:  # every value finite (an inf or a NaN makes this NaN)
        return list(map(float, values))
    return [num(v) for v in values]


def pose(X: RigidTransform) -> dict:
    p, (r0, r1, r2) = X.p, X.R
    total = p[0] + p[1] + p[2] + sum(r0) + sum(r1) + sum(r2)
    if total - total == 0.0:  # every entry finite
        return {"p": list(p), "R": [list(map(float, r0)), list(map(float, r1)),
                                    list(map(float, r2))]}
    return {"p": vec(p), "R": [vec(r0), vec(r1), vec(r2)]}


# How a section of the summary is held: one value, a mapping given as
# (key, value) pairs, or a list given as its items.
_VALUE, _MAPPING, _SEQUENCE = "value", "mapping", "sequence"


def summarize(plant: MultibodyPlant, parser: Parser, instances: list[int]) -> dict:
    """Summary of a finalized plant that ``parser`` filled."""
    out: dict = {}
    with collector_paused():  # many new objects, no cycles among them, nothing freed
        for key, kind, value in _sections(plant, parser, instances):
            out[key] = (dict(value) if kind == _MAPPING else list(value) if kind == _SEQUENCE
                        else value)
    return out


class Section:
    """A large section of a :func:`lazy_summary`: its size is known at once,
    its entries are made as they are read, once (``items()`` for a mapping,
    iteration for a list)."""

    __slots__ = ("_entries", "_size")

    def __init__(self, entries, size: int):
        self._entries, self._size = entries, size

    def __len__(self) -> int:
        return self._size

    def items(self):
        return self._entries

    def __iter__(self):
        return iter(self._entries)


def lazy_summary(plant: MultibodyPlant, parser: Parser, instances: list[int]) -> dict:
    """The summary with its large sections (bodies, frames, joints,
    actuators, geometries) as :class:`Section` objects read once, so that a
    reader that goes through it in order never holds a large model's whole
    summary (``mbparse inspect``'s outline)."""
    sg = plant.scene_graph
    sizes = {"bodies": plant.num_bodies() - 1,
             "frames": sum(1 for f in plant.frames() if not f.is_body_frame),
             "joints": plant.num_joints(), "actuators": len(plant.actuators()),
             "geometries": sg.num_geometries() if sg is not None else 0}
    out: dict = {}
    for key, kind, value in _sections(plant, parser, instances):
        out[key] = Section(value, sizes[key]) if kind != _VALUE else value
    return out


class Outline:
    """What ``mbparse inspect``'s text outline shows of a model, each large
    section a :class:`Section` of tuples made as they are read:

    - ``bodies``: (scoped name, mass, X_WB's translation, floating);
    - ``joints``: (scoped name, type, parent, child, axis or None, position
      lower limits, upper limits);
    - ``actuators``: (scoped name, joint, effort limit);
    - ``geometries``: (name, body, shape summary, roles), in the summary's order;

    every number a float (NaN and infinities included); ``counts``: the
    number of frames, constraints, force elements and sensors, where not 0.
    Made from a summary (:meth:`of_summary`) or, without making the
    summary's other fields, from the plant (:func:`outline`)."""

    __slots__ = ("file", "model_instances", "bodies", "joints", "actuators", "geometries",
                 "collision_candidates", "counts")

    def __init__(self, file: str, model_instances: list[str], bodies: Section,
                 joints: Section, actuators: Section, geometries: Section,
                 collision_candidates: int, counts: dict[str, int]) -> None:
        self.file, self.model_instances = file, model_instances
        self.bodies, self.joints, self.actuators = bodies, joints, actuators
        self.geometries, self.collision_candidates = geometries, collision_candidates
        self.counts = counts

    @classmethod
    def of_summary(cls, s: dict) -> "Outline":
        """The outline of a summary (:func:`summarize` or :func:`lazy_summary`,
        with its "file" key); the summary's "nan", "inf" and "-inf" are floats again."""
        def section(key, row):
            entries = s[key]
            items = entries.items() if hasattr(entries, "items") else entries
            return Section(map(row, items), len(entries))

        def floats(values):
            return tuple(map(float, values))

        def body(item):
            name, b = item
            return name, float(b["mass"]), floats(b["X_WB"]["p"]), b["floating"]

        def joint(item):
            name, j = item
            axis = j.get("axis")
            return (name, j["type"], j["parent"], j["child"],
                    None if axis is None else floats(axis), floats(j["pos_lower"]),
                    floats(j["pos_upper"]))

        def actuator(item):
            name, a = item
            return name, a["joint"], float(a["effort_limit"])

        def geometry(g):
            return g["name"], g["body"], g["shape"], g["roles"]

        return cls(s["file"], s["model_instances"], section("bodies", body),
                   section("joints", joint), section("actuators", actuator),
                   section("geometries", geometry), s["collision_candidates"],
                   {key: len(s[key]) for key in ("frames", "constraints", "force_elements",
                                                 "sensors") if s.get(key)})


def outline(plant: MultibodyPlant, parser: Parser, instances: list[int], file: str) -> Outline:
    """The :class:`Outline` of a finalized plant, made straight from the
    plant: what :meth:`Outline.of_summary` gives of its summary, without the
    summary's other fields (a large model's outline in a fraction of its
    summary's time)."""
    del parser  # (the outline shows nothing the parser alone holds)
    sg = plant.scene_graph
    poses = plant.calc_body_poses_in_world()
    # Every body's scoped name, by index: joints and geometries name theirs.
    names = [plant.scoped_name(b) for b in plant.bodies()]

    def bodies():
        for body in plant.bodies()[1:]:
            p = poses[body.index].p
            yield (names[body.index], float(body.default_spatial_inertia.mass),
                   (float(p[0]), float(p[1]), float(p[2])), body.is_floating_base_body)

    def joints():
        name = plant.scoped_name
        for j in plant.joints():
            axis = j.extra_summary().get("axis")
            yield (name(j), j.type_name, names[j.parent_body.index], names[j.child_body.index],
                   None if axis is None else tuple(map(float, axis)),
                   tuple(map(float, j.pos_lower)), tuple(map(float, j.pos_upper)))

    def actuators():
        name = plant.scoped_name
        for a in plant.actuators():
            yield name(a), name(a.joint), float(a.effort_limit)

    def geometries():
        if sg is None:
            return
        for g in sorted(sg.geometries(), key=lambda g: g.body):
            yield (g.name, names[g.body] if g.body else "world", g.shape.summary(),
                   [r for r in ROLES if g.has_role(r)])

    frames = sum(1 for f in plant.frames() if not f.is_body_frame)
    counts = {"frames": frames, "constraints": len(plant.constraints()),
              "force_elements": len(plant.force_elements()), "sensors": len(plant.sensors())}
    return Outline(file, [plant.get_model_instance_name(i) for i in instances],
                   Section(bodies(), plant.num_bodies() - 1),
                   Section(joints(), plant.num_joints()),
                   Section(actuators(), len(plant.actuators())),
                   Section(geometries(), sg.num_geometries() if sg is not None else 0),
                   sg.num_collision_candidates() if sg is not None else 0,
                   {key: n for key, n in counts.items() if n})


# Entries of a large section are encoded this many at a time: one encoder
# call per chunk costs far less than one per entry, and a chunk is small
# next to the model.
_CHUNK = 256


class _RepeatedKey(Exception):
    """A mapping section named one key twice (the dict keeps the last value)."""


def _unique_keys(pairs: Iterator) -> Iterator:
    """The (key, value) pairs of a mapping section; _RepeatedKey at a key
    seen before (the whole summary is then made as one dict instead)."""
    seen: set = set()
    for key, value in pairs:
        if key in seen:
            raise _RepeatedKey(key)
        seen.add(key)
        yield key, value


# The texts of a large section's entries are joined this many at a time:
# the pieces stay small enough for the C heap to reuse their memory (a
# section joined whole is tens of megabytes of new pages for a large model).
_TEXT_CHUNK = 64


def _chunks(entries, size: int = _CHUNK) -> Iterator[list]:
    """The entries in lists of at most ``size``."""
    it = iter(entries)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def summary_json(plant: MultibodyPlant, parser: Parser, instances: list[int],
                 extra: dict | None = None, end: str = "") -> str:
    """``json.dumps`` of the summary with ``extra``'s keys added at its end
    (and ``end`` after it: a large model's text is not copied to add a
    newline), written one body, frame, joint and geometry at a time, so that
    a large model never has its whole summary as Python objects (a
    100,000-link model's summary dict is several times the model's size)."""
    with collector_paused():  # many new objects, no cycles among them
        return _summary_json(plant, parser, instances, extra, end)


def _summary_json(plant: MultibodyPlant, parser: Parser, instances: list[int],
                  extra: dict | None, end: str) -> str:
    import json  # here: the text outline (inspect without --json) does without it

    # (pieces joined once at the end: the text is copied once, where a
    # StringIO's value is one more copy of it)
    parts: list[str] = []
    write, dumps = parts.append, json.dumps
    sections = _sections(plant, parser, instances)
    tail = ((key, _VALUE, value) for key, value in (extra or {}).items())
    # The largest sections as text straight from the plant (the same text
    # json.dumps gives their entries, made without the dicts; see _Texts).
    texts = _Texts(plant, dumps, json.encoder.encode_basestring_ascii)
    as_text = {"bodies": texts.bodies, "frames": texts.frames, "joints": texts.joints,
               "geometries": texts.geometries}
    try:
        write("{")
        first = True
        for key, kind, value in itertools.chain(sections, tail):
            if not first:
                write(", ")
            first = False
            write(dumps(key) + ": ")
            if kind == _MAPPING or kind == _SEQUENCE:
                mapping = kind == _MAPPING
                write("{" if mapping else "[")
                entries = as_text.get(key)
                if entries is not None:
                    sep = ""
                    for chunk in _chunks(entries(), _TEXT_CHUNK):
                        write(sep)
                        write(", ".join(chunk))
                        sep = ", "
                else:
                    sep = ""
                    for chunk in _chunks(_unique_keys(value) if mapping else value):
                        # (a chunk's JSON without its brackets: entries "k": v or v)
                        write(sep + dumps(dict(chunk) if mapping else chunk)[1:-1])
                        sep = ", "
                write("}" if mapping else "]")
            else:
                write(dumps(value))
        write("}")
    except _RepeatedKey:
        return dumps({**summarize(plant, parser, instances), **(extra or {})}) + end
    write(end)
    return "".join(parts)


def _float_text(v) -> str:
    """``json.dumps(num(v))``."""
    v = float(v)
    if v - v == 0.0:  # finite
        return v.__repr__()
    return '"nan"' if v != v else ('"inf"' if v > 0 else '"-inf"')


def _floats_text(values) -> str:
    """``json.dumps(vec(values))``, made without the list: finite floats
    are written as json writes them (their repr)."""
    total = sum(values)
    if total - total == 0:  # every value finite
        try:
            return "[" + ", ".join(map(float.__repr__, values)) + "]"
        except TypeError:  # (not every value a float)
            return "[" + ", ".join([float(v).__repr__() for v in values]) + "]"
    # Unbounded limits (a joint's velocity and acceleration limits, mostly
    # infinite) come again and again: their text is kept, unless a zero is
    # among them (0.0 and -0.0 are equal keys, but not the same text).
    key = tuple(values)
    text = _NON_FINITE_TEXTS.get(key)
    if text is None:
        text = "[" + ", ".join(map(_float_text, values)) + "]"
        if 0.0 not in key and len(_NON_FINITE_TEXTS) < 1024:
            _NON_FINITE_TEXTS[key] = text
    return text


_NON_FINITE_TEXTS: dict[tuple, str] = {}


# The most texts of each kind (rotations, poses, inertias, joint limits,
# shapes) _Texts keeps: a model of many different ones would otherwise keep
# them all.
_MOST_TEXTS_KEPT = 4096


def _kept_text(memo: dict, key, make) -> str:
    """``memo[key]``, made by ``make()`` at the first look (and then kept,
    while ``memo`` holds fewer than _MOST_TEXTS_KEPT texts)."""
    text = memo.get(key)
    if text is None:
        text = make()
        if len(memo) < _MOST_TEXTS_KEPT:
            memo[key] = text
    return text


def _written_alike_when_equal(values: tuple) -> bool:
    """Whether every tuple equal to ``values`` (a shape's fields) gives the
    same JSON text: equal floats other than zero (0.0 and -0.0 are equal, so
    are 1 and 1.0, but their texts differ), strings, and tuples of these."""
    for v in values:
        kind = v.__class__
        if kind is float:
            if not v:
                return False
        elif kind is tuple:
            if not _written_alike_when_equal(v):
                return False
        elif kind is not str:
            return False
    return True


class _Texts:
    """The JSON text of the bodies, frames, joints and geometries sections,
    entry by entry, as ``json.dumps`` writes ``_bodies``, the frames,
    ``_joints`` and ``_geometries``' dicts (a test holds them equal), made
    without the dicts: a large model's summary spends most of its time making
    and encoding them. What a model repeats is written once: rotations, the
    poses of frames, joints and geometries in their bodies, inertias, a
    joint's limits, shapes (a generated model repeats a few of each
    thousands of times)."""

    def __init__(self, plant: MultibodyPlant, dumps, quote) -> None:
        # (quote: json's own writing of a str, json.encoder.encode_basestring_ascii)
        self.plant, self.dumps, self.quote = plant, dumps, quote
        # Texts by the bits of their numbers (0.0 and -0.0 apart): a
        # rotation's by its nine, a pose's by its twelve.
        self._rotations: dict[bytes, str] = {}
        self._poses: dict[bytes, str] = {}
        self._rotation_bits = struct.Struct("9d").pack
        self._pose_bits = struct.Struct("12d").pack
        # Every body's scoped name as JSON, by index (joints and frames name theirs).
        self._body_names = list(map(quote, map(plant.scoped_name, plant.bodies())))
        self._packs: dict[tuple, object] = {}  # a joint's numbers' packer, by its vectors' sizes
        self._limits_texts: dict[tuple, str] = {}
        self._shapes: dict[tuple, str] = {}

    def _rotation(self, R, bits: bytes) -> str:
        """The text of the rotation ``R``, whose numbers' bits are ``bits``."""
        return _kept_text(self._rotations, bits,
                          lambda: "[" + ", ".join(map(_floats_text, R)) + "]")

    def pose(self, X: RigidTransform) -> str:
        """A pose met once (a body's in the world): only its rotation's text is kept."""
        (a, b, c), (d, e, f), (g, h, i) = R = X.R
        bits = self._rotation_bits(a, b, c, d, e, f, g, h, i)
        return '{"p": ' + _floats_text(X.p) + ', "R": ' + self._rotation(R, bits) + "}"

    def offset(self, X: RigidTransform) -> str:
        """A pose a model repeats (a frame's, a joint's or a geometry's in its
        body): its whole text is kept."""
        (a, b, c), (d, e, f), (g, h, i) = R = X.R
        p = X.p
        bits = self._pose_bits(a, b, c, d, e, f, g, h, i, p[0], p[1], p[2])
        return _kept_text(self._poses, bits, lambda: (  # (bits[:72]: R's nine doubles)
            '{"p": ' + _floats_text(p) + ', "R": ' + self._rotation(R, bits[:72]) + "}"))

    def _names(self, names) -> Iterator[str]:
        """The JSON of each name, checking that none comes twice."""
        seen: set = set()
        for name in names:
            if name in seen:
                raise _RepeatedKey(name)
            seen.add(name)
            yield self.quote(name)

    def bodies(self) -> Iterator[str]:
        plant = self.plant
        pose, floats = self.pose, _floats_text
        poses = plant.calc_body_poses_in_world()
        bodies = plant.bodies()[1:]
        keys = self._body_names[1:]
        if len(set(keys)) < len(keys):  # (two bodies' scoped names alike)
            raise _RepeatedKey("bodies")
        inertias: dict[bytes, str] = {}  # (a generated model repeats a few inertias)
        bits = struct.Struct("10d").pack
        for key, body in zip(keys, bodies):
            M = body.default_spatial_inertia
            (x, y, z), (a, b, c, d, e, f) = M.com, M.I_cm
            known = bits(M.mass, x, y, z, a, b, c, d, e, f)
            mass_com_inertia = _kept_text(inertias, known, lambda M=M: (
                f'"mass": {_float_text(M.mass)}, "com": {floats(M.com)}, '
                f'"inertia": {floats(M.inertia_about_origin())}'))
            yield (f'{key}: {{{mass_com_inertia}, "X_WB": {pose(poses[body.index])}, '
                   f'"floating": {"true" if body.is_floating_base_body else "false"}}}')

    def frames(self) -> Iterator[str]:
        """The frames that are not a body's own frame."""
        frames = [f for f in self.plant.frames() if not f.is_body_frame]
        body_names, offset = self._body_names, self.offset
        for key, f in zip(self._names(map(self.plant.scoped_name, frames)), frames):
            yield f'{key}: {{"body": {body_names[f.body.index]}, "X_BF": {offset(f.X_BF)}}}'

    def joints(self) -> Iterator[str]:
        plant, _quote, offset = self.plant, self.quote, self.offset
        body_names, limits = self._body_names, self._limits
        types: dict[str, str] = {}
        joints = plant.joints()
        for key, j in zip(self._names(map(plant.scoped_name, joints)), joints):
            kind = types.get(j.type_name) or types.setdefault(j.type_name, _quote(j.type_name))
            text = (f'{key}: {{"type": {kind}, '
                    f'"parent": {body_names[j.parent_body.index]}, '
                    f'"child": {body_names[j.child_body.index]}, '
                    f'"X_PF": {offset(j.frame_on_parent.X_BF)}, '
                    f'"X_CM": {offset(j.frame_on_child.X_BF)}, {limits(j)}')
            for k, v in j.extra_summary().items():
                value = _floats_text(v) if isinstance(v, (list, tuple)) else _float_text(v)
                text += f", {_quote(k)}: {value}"
            yield text + "}"

    def _limits(self, j) -> str:
        """A joint's entries from "pos_lower" to "default_positions", kept by
        the bits of their numbers (a generated model's joints share a few)."""
        vectors = (pl, pu, vl, vu, al, au, d, q) = (
            j.pos_lower, j.pos_upper, j.vel_lower, j.vel_upper, j.acc_lower, j.acc_upper,
            j.damping, j.default_positions)
        counts = (len(pl), len(pu), len(vl), len(vu), len(al), len(au), len(d), len(q))
        pack = self._packs.get(counts)
        if pack is None:
            pack = self._packs[counts] = struct.Struct(f"{sum(counts)}d").pack
        try:
            key = (counts, pack(*pl, *pu, *vl, *vu, *al, *au, *d, *q))
        except (struct.error, TypeError):  # (not all numbers: written as before, not kept)
            return _limits_text(vectors)
        return _kept_text(self._limits_texts, key, lambda: _limits_text(vectors))

    def _shape(self, shape) -> str:
        """``json.dumps(shape.summary())``, kept for shapes whose equal ones
        are written alike (a generated model's shapes repeat a few sizes)."""
        kind = shape.__class__
        values = kind._key(shape)
        if not _written_alike_when_equal(values):
            return self.dumps(shape.summary())
        return _kept_text(self._shapes, (kind, values), lambda: self.dumps(shape.summary()))

    def geometries(self) -> Iterator[str]:
        plant, dumps, offset, _quote = self.plant, self.dumps, self.offset, self.quote
        sg = plant.scene_graph
        if sg is None:
            return
        name = plant.scoped_name
        body_names: dict[int, str] = {}
        roles_of: dict[tuple, tuple] = {}  # (the roles written, their JSON) by the properties' keys
        # The "props" text by its roles and the property value mappings it
        # writes, by identity: geometries that share their values share
        # their text (each mapping is kept with it, so no id is reused).
        props_of: dict[tuple, tuple] = {}

        def props_text(roles: tuple, values: list) -> str:
            return ", ".join(
                _quote(r) + ": " + dumps({f"{grp}/{key}": summarize_property_value(v)
                                          for (grp, key), v in sorted(mapping.items())})
                for r, mapping in zip(roles, values))

        for g in sorted(sg.geometries(), key=lambda g: g.body):
            body = body_names.get(g.body)
            if body is None:
                b = plant.get_body(g.body)
                body = body_names[g.body] = _quote("world" if b.is_world() else name(b))
            instance = g.instance
            properties = instance.properties
            roles, roles_json = roles_of.get(tuple(properties)) or roles_of.setdefault(
                tuple(properties), _roles(properties, dumps))
            values = [properties[r].values_read() for r in roles]
            key = (roles_json, tuple(map(id, values)))
            props = props_of.get(key)
            if props is None:
                props = props_of[key] = (values, props_text(roles, values))
            yield (f'{{"body": {body}, "name": {_quote(instance.name)}, "roles": {roles_json}, '
                   f'"shape": {self._shape(instance.shape)}, "X_BG": {offset(instance.X_BG)}, '
                   f'"props": {{{props[1]}}}}}')


def _roles(properties: dict, dumps) -> tuple[tuple[str, ...], str]:
    """The roles a geometry with these role properties has, in the summary's
    order, and their JSON."""
    roles = tuple(r for r in ROLES if r in properties)
    return roles, dumps(list(roles))


def _limits_text(vectors: tuple) -> str:
    """The text of a joint's entries from "pos_lower" to "default_positions"
    (its vectors in that order)."""
    pl, pu, vl, vu, al, au, d, q = map(_floats_text, vectors)
    return (f'"pos_lower": {pl}, "pos_upper": {pu}, "vel_lower": {vl}, "vel_upper": {vu}, '
            f'"acc_lower": {al}, "acc_upper": {au}, "damping": {d}, "default_positions": {q}')


def _sections(plant: MultibodyPlant, parser: Parser, instances: list[int]) -> Iterator:
    """(key, kind, value) of every top-level entry of the summary, in order;
    the large sections are iterators, made as they are read."""
    yield "schema", _VALUE, SCHEMA
    yield "model_instances", _VALUE, [plant.get_model_instance_name(i) for i in instances]
    yield "bodies", _MAPPING, _bodies(plant)
    name = plant.scoped_name
    yield "frames", _MAPPING, ((name(f), {"body": name(f.body), "X_BF": pose(f.X_BF)})
                               for f in plant.frames() if not f.is_body_frame)
    yield "joints", _MAPPING, _joints(plant)
    yield "actuators", _MAPPING, _actuators(plant)
    yield "geometries", _SEQUENCE, _geometries(plant)
    sg = plant.scene_graph
    yield "collision_candidates", _VALUE, sg.num_collision_candidates() if sg is not None else 0
    groups = parser.get_collision_filter_groups()
    yield "collision_filter_groups", _VALUE, {
        "groups": {k: sorted(v) for k, v in sorted(groups.groups().items())},
        "exclusion_pairs": sorted([list(p) for p in groups.exclusion_pairs()])}
    yield "constraints", _VALUE, [_constraint(plant, c) for c in plant.constraints()]
    yield "force_elements", _VALUE, [_force(plant, f) for f in plant.force_elements()]
    if plant.sensors():
        yield "sensors", _VALUE, [_sensor(plant, s) for s in plant.sensors()]


def _bodies(plant: MultibodyPlant) -> Iterator[tuple[str, dict]]:
    name = plant.scoped_name
    poses = plant.calc_body_poses_in_world()
    for body in plant.bodies()[1:]:
        M = body.default_spatial_inertia
        yield name(body), {"mass": num(M.mass), "com": vec(M.com),
                           "inertia": vec(M.inertia_about_origin()),
                           "X_WB": pose(poses[body.index]),
                           "floating": body.is_floating_base_body}


def _joints(plant: MultibodyPlant) -> Iterator[tuple[str, dict]]:
    name = plant.scoped_name
    for j in plant.joints():
        d = {"type": j.type_name, "parent": name(j.parent_body), "child": name(j.child_body),
             "X_PF": pose(j.frame_on_parent.X_BF), "X_CM": pose(j.frame_on_child.X_BF),
             "pos_lower": vec(j.pos_lower), "pos_upper": vec(j.pos_upper),
             "vel_lower": vec(j.vel_lower), "vel_upper": vec(j.vel_upper),
             "acc_lower": vec(j.acc_lower), "acc_upper": vec(j.acc_upper),
             "damping": vec(j.damping), "default_positions": vec(j.default_positions)}
        for k, v in j.extra_summary().items():
            d[k] = vec(v) if isinstance(v, (list, tuple)) else num(v)
        yield name(j), d


def _actuators(plant: MultibodyPlant) -> Iterator[tuple[str, dict]]:
    name = plant.scoped_name
    for a in plant.actuators():
        d = {"joint": name(a.joint), "effort_limit": num(a.effort_limit),
             "gear_ratio": num(a.gear_ratio), "rotor_inertia": num(a.rotor_inertia)}
        if a.controller_gains is not None:
            d["pd_gains"] = [num(a.controller_gains.p), num(a.controller_gains.d)]
        yield name(a), d


def _geometries(plant: MultibodyPlant) -> Iterator[dict]:
    sg = plant.scene_graph
    if sg is None:
        return
    name = plant.scoped_name
    for g in sorted(sg.geometries(), key=lambda g: g.body):
        body = plant.get_body(g.body)
        roles = [r for r in ROLES if g.has_role(r)]
        yield {"body": "world" if body.is_world() else name(body),
               "name": g.name, "roles": roles, "shape": g.shape.summary(),
               "X_BG": pose(g.X_BG),
               "props": {r: {f"{grp}/{key}": summarize_property_value(v)
                             for (grp, key), v in sorted(g.properties(r).items())}
                         for r in roles}}


def _constraint(plant: MultibodyPlant, c) -> dict:
    name = plant.scoped_name
    if c.type == "coupler":
        return {"type": "coupler", "joint0": name(c.joint0), "joint1": name(c.joint1),
                "gear_ratio": num(c.gear_ratio), "offset": num(c.offset)}
    if c.type == "ball":
        return {"type": "ball", "body_A": name(c.body_A), "body_B": name(c.body_B),
                "p_AP": vec(c.p_AP), "p_BQ": vec(c.p_BQ) if c.p_BQ is not None else None}
    if c.type == "distance":
        return {"type": "distance", "body_A": name(c.body_A), "body_B": name(c.body_B),
                "p_AP": vec(c.p_AP), "p_BQ": vec(c.p_BQ)}
    if c.type == "weld":
        return {"type": "weld", "body_A": name(c.body_A), "body_B": name(c.body_B),
                "X_AP": pose(c.X_AP), "X_BQ": pose(c.X_BQ)}
    if c.type == "loop_joint":
        return {"type": "loop_joint", "name": c.name, "body_A": name(c.body_A),
                "body_B": name(c.body_B), "X_AF": pose(c.X_AF), "X_BM": pose(c.X_BM),
                "axis": vec(c.axis), "joint_type": c.joint_type}
    return {"type": c.type}


def _force(plant: MultibodyPlant, f) -> dict:
    name = plant.scoped_name
    if f.type == "linear_bushing_rpy":
        return {"type": f.type, "frameA": name(f.frameA), "frameC": name(f.frameC),
                "torque_stiffness": vec(f.torque_stiffness),
                "torque_damping": vec(f.torque_damping),
                "force_stiffness": vec(f.force_stiffness), "force_damping": vec(f.force_damping)}
    if f.type == "revolute_spring":
        return {"type": f.type, "joint": name(f.joint), "nominal_angle": num(f.nominal_angle),
                "stiffness": num(f.stiffness)}
    if f.type == "linear_spring_damper":
        d = {"type": f.type, "body_A": name(f.body_A), "body_B": name(f.body_B),
             "p_AP": vec(f.p_AP), "p_BQ": vec(f.p_BQ), "free_length": num(f.free_length),
             "stiffness": num(f.stiffness), "damping": num(f.damping)}
        if getattr(f, "name", None):  # only a URDF <force_element> names one
            d["name"] = f.name
        return d
    d = {"type": f.type, "name": f.name, "body": name(f.body), "X_BF": pose(f.X_BF)}
    d.update({k: _plain(v) for k, v in f.parameters.items()})
    return d


def _sensor(plant: MultibodyPlant, s) -> dict:
    d = {"name": s.name, "type": s.type, "parent": s.parent,
         "parent_link": plant.scoped_name(s.parent_link), "X_PS": pose(s.X_PS)}
    d.update({k: _plain(v) for k, v in s.parameters.items()})
    return d


def _plain(v):
    if isinstance(v, float):
        return num(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, RigidTransform):
        return pose(v)
    return v
