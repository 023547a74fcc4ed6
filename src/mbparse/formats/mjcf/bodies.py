"""The body tree: ``<worldbody>`` and nested ``<body>`` elements with their
``<inertial>``, geoms, joints and sites, read first into records (so that
``settotalmass`` and the other compiler bounds can see every body) and then
added to the plant."""
from __future__ import annotations

from ...diagnostics import ParseError
from ...spatial import IDENTITY, RigidTransform
from ..common.xml import MEMO_LIMIT
from .attrs import Attrs, own_values
from .compiler import Compiler, finite_pose, frame
from .defaults import MAIN, ORIENTATION_SET, DefaultClasses
from .document import Document, tag
from .geoms import Geom, GeomReader
from .inertia import combine, rotate_inertia
from .mujoco_refuses import mujoco_refuses


_JOINT_TAGS = frozenset(("joint", "freejoint"))
BODY_UNSUPPORTED = ("mocap", "gravcomp", "user", "sleep")


class Placed:
    """An element (joint, site) with its attributes and the pose of the
    ``<frame>`` elements around it, in its body's frame."""

    __slots__ = ("el", "attrs", "X_BF")

    def __init__(self, el, attrs: Attrs, X_BF: RigidTransform):
        self.el = el
        self.attrs = attrs
        self.X_BF = X_BF


class PlacedJoint:
    """A ``<joint>`` (or ``<freejoint>``) as read: its element, the pose of
    the ``<frame>`` elements around it in its body's frame, its own name,
    and its attributes with its class's defaults (:class:`Attrs`), made
    when first asked for: a joint written like one read before (``key``)
    takes that one's values without them (see PlantBuilder._joint)."""

    __slots__ = ("el", "X_BF", "name", "key", "_attrs", "_defaults", "_childclass", "_items")

    def __init__(self, el, X_BF: RigidTransform, name: str | None, key: tuple | None,
                 attrs: Attrs | None, defaults: DefaultClasses | None = None,
                 childclass: str | None = None, items: list | None = None):
        self.el = el
        self.X_BF = X_BF
        self.name = name  # (a default class never names an element)
        # (its class, its own attributes but 'name' and 'class') when it is
        # outside <frame>s, else None
        self.key = key
        self._attrs = attrs
        self._defaults = defaults
        self._childclass = childclass
        self._items = items

    @property
    def attrs(self) -> Attrs:
        a = self._attrs
        if a is None:
            a = self._attrs = self._defaults.attrs(self.el, self._childclass, items=self._items)
        return a


class Body:
    """A body as read, before it is added to the plant."""

    __slots__ = ("el", "name", "parent", "X_PB", "_X_WB", "moving", "geoms", "joints", "free",
                 "sites", "children", "dummy_names", "mass", "com", "inertia", "plant_body")

    def __init__(self, el, name: str, parent: "Body | None", X_PB: RigidTransform,
                 moving: bool):
        self.el = el
        self.name = name
        self.parent = parent
        self.X_PB = X_PB
        self._X_WB: RigidTransform | None = None if parent is not None else X_PB
        self.moving = moving
        self.geoms: list[Geom] = []
        self.joints: list[PlacedJoint] = []
        self.free = None  # the element that made the body free
        self.sites: list[Placed] = []
        self.children: list[Body] = []
        self.dummy_names: list[str] = []
        self.mass = 0.0
        self.com: tuple = (0.0, 0.0, 0.0)
        self.inertia: tuple = (0.0,) * 6
        self.plant_body = None

    @property
    def X_WB(self) -> RigidTransform:
        """The body's pose in the world (worked out when first asked for)."""
        X = self._X_WB
        if X is None:
            X = self._X_WB = self.parent.X_WB @ self.X_PB
        return X


class BodyTreeReader:
    """Reads ``<worldbody>`` into a tree of ``Body`` records."""

    def __init__(self, doc: Document, defaults: DefaultClasses, compiler: Compiler,
                 geoms: GeomReader, first_body_index: int):
        self.doc = doc
        self.defaults = defaults
        self.compiler = compiler
        self.geom_reader = geoms
        self.next_index = first_body_index  # Drake's "body<N>" for unnamed bodies
        self.world = Body(None, "world", None, RigidTransform(), False)
        self.bodies: list[Body] = []
        self.has_sites = False  # whether a body holds a site
        # <inertial> attributes → what they give (see _inertial)
        self._inertials: dict[tuple, tuple[float, tuple, tuple]] = {}
        # a body's 'pos' text → its pose, when it has no orientation and no <frame> around it
        self._translations: dict[str, RigidTransform] = {}
        # one geom's (mass, com, inertia) → the body's mass properties (see _inertia)
        self._single_geom: dict[tuple, tuple[float, tuple, tuple]] = {}

    def release(self) -> None:
        """Unlinks the body records from each other once the model is built,
        so that they (and the XML they hold) are freed at once rather than
        left as reference cycles for Python's collector to walk."""
        for body in self.bodies:
            body.parent = None
            body.children = []
        self.world.children = []

    # ------------------------------------------------------------ world
    def read_world(self, world_el) -> None:
        doc = self.doc
        for name in ("mocap", "gravcomp", "user", "childclass", "name", "pos", "quat"):
            if world_el.get(name) is not None:
                doc.warning(world_el, f"the attribute '{name}' of <worldbody> is not supported "
                                      "and is ignored", code="mjcf-unsupported")
        child_bodies: list = []
        self._contents(self.world, world_el, IDENTITY, None, True, False, child_bodies)
        self._read_tree(child_bodies)

    def read_top_level_body(self, body_el) -> None:
        """A ``<body>`` written directly under ``<mujoco>``: Drake adds it as
        a child of the world (after the bodies of ``<worldbody>``); MuJoCo's
        compiler ignores it, and so does the default mode, with a warning."""
        doc = self.doc
        if not doc.policy.like_drake:
            doc.warning(body_el, "a <body> outside <worldbody> is ignored, as MuJoCo ignores "
                                 "it (Drake adds it as a child of the world); is this file meant "
                                 "to be included inside a <worldbody>?", code="mjcf-body-ignored")
            return
        self._read_tree([(body_el, self.world, RigidTransform(), None)])

    def _read_tree(self, pending: list) -> None:
        """Reads bodies (element, parent, pose of the parent frame, class)
        and everything below them."""
        # Depth first, in document order, with a stack of its own: a chain of
        # nested bodies (a rope) must not exhaust Python's stack.
        pending.reverse()
        read = self._body
        while pending:
            item = pending.pop()
            try:  # errors in one body (and what it holds) end only that body
                children = read(*item)
            except ParseError as e:
                self.doc.recover(e)
                continue
            if children:
                children.reverse()
                pending += children

    # ------------------------------------------------------------ one body
    def _body(self, el, parent: Body, X_PF: RigidTransform, childclass: str | None) -> list:
        """Reads one body; returns its child bodies (element, parent, pose, class)."""
        doc = self.doc
        # (most bodies) a name, a pos, a childclass: read from the items,
        # without an Attrs unless its pose or another attribute needs one
        items = el.items()
        name = written_class = pos = None
        others = False
        for k, v in items:
            if k == "name":
                name = v
            elif k == "pos":
                pos = v
            elif k == "childclass":
                written_class = v
            else:
                others = True
        if name is None:
            name = f"body{self.next_index}"
        self.next_index += 1
        if written_class is not None:
            childclass = written_class
            self.defaults.check_class(el, childclass)
        a = None
        try:
            X_PB = None if others or X_PF is not IDENTITY else self._translations.get(pos)
            if X_PB is None:
                a = Attrs(el, doc, own_values(el, items))
                X_PB = self._placement(el, a, a.values, X_PF)
        except ParseError as e:
            # While collecting errors (``check``), a body whose pose cannot be
            # read is still read, at its parent frame's origin, so that the
            # problems of what it holds are found too.
            doc.recover(e)
            X_PB = X_PF
        if others:
            if a is None:
                a = Attrs(el, doc, own_values(el, items))
            if not a.values.keys().isdisjoint(BODY_UNSUPPORTED):
                a.warn_unsupported(BODY_UNSUPPORTED)
        kids = doc.kids(el)
        if type(kids) is tuple:  # no <include> inside: one look at the tags
            tags = set()
            for k in kids:
                tags.add(k.tag)
            if "frame" in tags:
                has_joints = any(k.tag in _JOINT_TAGS for k in self._flat(el))
            else:
                has_joints = not _JOINT_TAGS.isdisjoint(tags)
        else:  # includes are expanded as far as each question needs, as they are read
            kids = tags = None
            has_joints = any(k.tag in _JOINT_TAGS for k in self._flat(el))
        # Whether the body can move decides whether it may hold a plane.
        body = Body(el, name, parent, X_PB, parent.moving or has_joints)
        self.bodies.append(body)
        parent.children.append(body)
        if self.compiler.inertiafromgeom == "true":
            with_inertia = True
        elif tags is not None:
            with_inertia = "inertial" not in tags
        else:
            with_inertia = doc.first(el, "inertial") is None
        child_bodies: list = []
        self._contents(body, el, IDENTITY, childclass, False, with_inertia, child_bodies, kids)
        try:
            self._inertia(body, el, tags)
        except ParseError as e:
            doc.recover(e)
        joints = body.joints
        if len(joints) > 1:
            moving = sum(1 for j in joints if j.attrs.text("type") != "free")
            body.dummy_names = [f"{name}{k}" for k in range(max(0, moving - 1))]
            self.next_index += len(body.dummy_names)
        return child_bodies

    def _placement(self, el, a: Attrs, own: dict, X_PF: RigidTransform) -> RigidTransform:
        """The pose of the body ``el`` in its parent body, given the pose
        ``X_PF`` of its parent frame."""
        if X_PF is IDENTITY and ORIENTATION_SET.isdisjoint(own):
            # (most bodies) a translation in the parent's frame: what
            # IDENTITY @ frame() gives, each number + 0.0, in one transform,
            # kept by its text (transforms are immutable values).
            if "pos" in own:
                text = own["pos"][0]
                X = self._translations.get(text)
                if X is None:
                    p = a.numbers("pos", 3)
                    X = RigidTransform(p=(0.0 + p[0], 0.0 + p[1], 0.0 + p[2]))
                    if len(self._translations) < MEMO_LIMIT:
                        self._translations[text] = X
                return X
            return RigidTransform()  # (a new one: the memo's key None is never set)
        return finite_pose(self.doc, el, X_PF @ frame(a, self.compiler))

    def _flat(self, el):
        """Children of a body, with those of its <frame> elements."""
        for k in self.doc.kids(el):
            if k.tag == "frame":
                yield from self._flat(k)
            else:
                yield k

    def _contents(self, body: Body, el, X_BF: RigidTransform, childclass: str | None,
                  in_world: bool, with_inertia: bool, child_bodies: list,
                  kids: tuple | None = None) -> None:
        """Reads the geoms, joints and sites of ``el`` (a body or a frame,
        whose pose in the body is ``X_BF``); adds its child bodies to
        ``child_bodies`` as (element, parent, pose of their parent frame,
        class) to read next. ``kids``: the children of ``el`` when the
        caller has them."""
        doc = self.doc
        defaults = self.defaults
        for child in kids if kids is not None else doc.kids(el):
            try:
                t = child.tag  # kids() gives elements only
                if t == "geom":
                    self._geom(body, child, X_BF, childclass, in_world, with_inertia)
                elif t == "body":
                    child_bodies.append((child, body, X_BF, childclass))
                elif t == "joint" or t == "freejoint":
                    if in_world:
                        doc.error(child, f"<{t}> cannot be a child of <worldbody>",
                                  code="mjcf-structure")
                    if t == "joint":
                        body.joints.append(self._joint(child, X_BF, childclass))
                    else:
                        a = Attrs(child, doc, own_values(child))
                        a.values["type"] = ("free", child)
                        body.joints.append(PlacedJoint(child, X_BF, a.text("name"), None, a))
                elif t == "site" and doc.policy.like_drake:
                    # Drake 1.51's MJCF parser makes no frame of a site.
                    doc.warning(child, f"The tag 'site' found as a child of '{tag(el)}' is "
                                       "currently unsupported and will be ignored",
                                code="mjcf-unsupported")
                elif t == "site":
                    body.sites.append(Placed(child, defaults.attrs(child, childclass), X_BF))
                    self.has_sites = True
                elif t == "frame":
                    fa = Attrs(child, doc, own_values(child))
                    cls = child.get("childclass")
                    if cls is not None:
                        defaults.check_class(child, cls)
                    self._contents(body, child,
                                   finite_pose(doc, child, X_BF @ frame(fa, self.compiler)),
                                   cls or childclass, in_world, with_inertia, child_bodies)
                elif t == "inertial":
                    if in_world or tag(el) == "frame":
                        doc.error(child, f"<inertial> cannot be a child of <{tag(el)}>",
                                  code="mjcf-structure")
                elif child not in doc.unknown:  # else the schema check reported it
                    doc.warning(child, f"<{t}> inside a body is not supported and is ignored",
                                code="mjcf-unsupported")
            except ParseError as e:
                doc.recover(e)

    def _joint(self, el, X_BF: RigidTransform, childclass: str | None) -> PlacedJoint:
        """A ``<joint>`` of the body, its class checked (an unknown one is
        an error here, where it is read); its attributes are made when the
        plant builder asks for them."""
        items = el.items()
        name = written = None
        parts: list = [None]
        for item in items:
            k = item[0]
            if k == "name":
                name = item[1]
            elif k == "class":
                written = item[1]
            else:
                parts.append(item)
        defaults = self.defaults
        parts[0] = (childclass or MAIN) if written is None else defaults.class_of(el, childclass)
        return PlacedJoint(el, X_BF, name, tuple(parts) if X_BF is IDENTITY else None, None,
                           defaults, childclass, items)

    def _geom(self, body: Body, el, X_BF: RigidTransform, childclass, in_world: bool,
              with_inertia: bool) -> None:
        geom = self.geom_reader.read(el, len(body.geoms), childclass, in_world, body.moving,
                                     with_inertia)
        if geom is None:
            return
        if X_BF is not IDENTITY and not X_BF.is_exactly_identity():
            geom.X_BG = finite_pose(self.doc, el, X_BF @ geom.X_BG)
            geom.com = X_BF.apply(geom.com)
            geom.inertia = rotate_inertia(geom.inertia, X_BF.R)
        body.geoms.append(geom)

    # ------------------------------------------------------------ inertia
    def _inertia(self, body: Body, el, tags: set | None) -> None:
        """The body's mass properties: its ``<inertial>``, else its geoms'
        (``tags``: the tags of its children when known, else None)."""
        doc = self.doc
        inertial = None if tags is not None and "inertial" not in tags \
            else doc.first(el, "inertial")
        mode = self.compiler.inertiafromgeom
        if inertial is not None and mode != "true":
            body.mass, body.com, body.inertia = self._inertial(inertial)
            if body.mass == 0:
                # Drake builds the body's spatial inertia from this central
                # inertia, which needs a positive mass: it stops on
                # "condition 'mass > 0' failed" (robosuite's sawyer/robot.xml).
                doc.diag(inertial).drake_refuses(
                    inertial, f"<inertial> of body '{body.name}' has mass 0, which Drake's MJCF "
                              "parser cannot take (its spatial inertia needs a positive mass)",
                    "mbparse reads a massless body, as MuJoCo does", code="inertia-invalid")
            return
        if inertial is None and mode == "false":
            doc.error(el, f"body '{body.name}' has no <inertial> and the compiler says "
                          "inertiafromgeom='false'", code="mjcf-element-missing")
        lo, hi = self.compiler.inertiagrouprange
        parts = []
        for g in body.geoms:
            if g.mass > 0 and lo <= g.group <= hi:
                parts.append((g.mass, g.com, g.inertia))
        if len(parts) != 1:
            body.mass, body.com, body.inertia = combine(parts)
            return
        # (most bodies) one geom's: a function of its numbers, kept by their
        # values (combine's results hold no -0.0, so 0.0 and -0.0 give the same bits)
        part = parts[0]
        known = self._single_geom.get(part)
        if known is None:
            known = combine(parts)
            if len(self._single_geom) < MEMO_LIMIT:
                self._single_geom[part] = known
        body.mass, body.com, body.inertia = known

    def _inertial(self, el) -> tuple[float, tuple, tuple]:
        """(mass, center of mass, inertia about it) of an ``<inertial>``:
        a function of its attributes alone (it takes no defaults), so an
        ``<inertial>`` written as one read before gets that one's values
        (a generated model repeats a few thousands of times)."""
        if el.get("pos") is None:  # (said at every one, not only the first of a kind)
            mujoco_refuses(self.doc, el, "<inertial> has no 'pos'",
                           "required attribute missing: 'pos'",
                           "mbparse puts the center of mass at the body's origin, as Drake does")
        items = tuple(el.items())
        known = self._inertials.get(items)
        if known is None:
            known = self._read_inertial(el)
            if len(self._inertials) < MEMO_LIMIT:
                self._inertials[items] = known
        return known

    def _read_inertial(self, el) -> tuple[float, tuple, tuple]:
        a = Attrs(el, self.doc, own_values(el))
        if not a.has("mass"):
            self.doc.error(el, "<inertial> needs a 'mass' attribute", code="mjcf-attribute-missing")
        X = frame(a, self.compiler)
        mass = a.scalar("mass")
        if a.has("fullinertia"):
            if a.has("diaginertia"):
                self.doc.error(el, "<inertial> cannot have both 'diaginertia' and "
                                   "'fullinertia'", code="mjcf-conflict")
            if any(a.has(k) for k in ("quat", "axisangle", "euler", "xyaxes", "zaxis")):
                self.doc.error(el, "<inertial> cannot orient a 'fullinertia'", code="mjcf-conflict")
            I = a.numbers("fullinertia", 6)
        elif a.has("diaginertia"):
            d = a.numbers("diaginertia", 3)
            I = rotate_inertia((d[0], d[1], d[2], 0.0, 0.0, 0.0), X.R)
        else:
            self.doc.error(el, "<inertial> needs 'diaginertia' or 'fullinertia'",
                           code="mjcf-element-missing")
        if mass < 0:
            self.doc.error(el, f"<inertial> has a negative mass ({mass})", code="mass-negative")
        return mass, X.p, tuple(I)
