"""The rule table: every diagnostic code mbparse raises, documented once.

A reader or the plant names the kind of each problem where it raises it
(``code="mesh-missing"``); this table says what the code means, its level in
``mbparse check`` and how to fix it. ``check --list-rules``, the text, JSON
and SARIF reports and ``docs/CHECK_RULES.md`` (written by
``tools/make_check_rules_doc.py``) all read it.

Levels: ``error`` (the model is wrong or cannot be loaded; physically
impossible values are errors here even where Drake only warns), ``warning``
(a real modelling smell, or input a reader had to guess about) and ``note``
(valid input that some consumer does not read; hidden unless
``--show-notes``). A problem a reader cannot read past is an error whatever
its rule says.
"""
from __future__ import annotations

from ..records import FrozenRecord, _set

SEVERITIES = ("error", "warning", "note")

# The code of a diagnostic raised without one (there should be none; a test
# checks every call site), by its severity.
GENERIC = {"error": "unclassified-error", "warning": "unclassified-warning"}


class Rule(FrozenRecord):
    """A kind of problem ``mbparse check`` reports (immutable)."""

    _fields = ("id", "severity", "summary", "hint")

    def __init__(self, id: str, severity: str, summary: str, hint: str) -> None:
        if severity not in SEVERITIES:
            raise ValueError(f"rule {id}: unknown severity {severity!r}")
        _set(self, "id", id)
        _set(self, "severity", severity)
        _set(self, "summary", summary)
        _set(self, "hint", hint)


_FORMATS = {"urdf": "URDF", "sdf": "SDFormat", "mjcf": "MJCF", "dmd": "model directives",
            "obj": "OBJ", "convert": "URDF (for convert)", "xml": "XML model", "usd": "USD"}


def _family(fmt: str, only: str = "") -> list[Rule]:
    """The structural rules the formats share, prefixed by format (``only``:
    the kinds, space-separated, a format raises; default all)."""
    name = _FORMATS[fmt]
    rules = [
        Rule(f"{fmt}-root", "error", f"the file's root element is not that of a {name} file",
             "check the file's format (its suffix) and its first element"),
        Rule(f"{fmt}-attribute-missing", "error", f"a {name} element lacks a required attribute",
             "add the attribute the message names"),
        Rule(f"{fmt}-element-missing", "error", f"a {name} element lacks a required child element",
             "add the child element the message names"),
        Rule(f"{fmt}-value-invalid", "error", f"a {name} value cannot be read or is not allowed",
             "write the value in the form the message names"),
        Rule(f"{fmt}-structure", "error", f"the {name} elements are not arranged as the format "
             "requires (too many, too few, in the wrong place)",
             "move, add or remove elements as the message says"),
        Rule(f"{fmt}-conflict", "error", f"two {name} settings contradict each other",
             "keep one of the two"),
        Rule(f"{fmt}-unsupported", "note", f"valid {name} that mbparse (like Drake) does not read; "
             "it is ignored", "nothing to fix if the simulators you target read it"),
        Rule(f"{fmt}-not-supported", "error", f"valid {name} that mbparse cannot load at all",
             "leave the feature out, or use an equivalent the message names"),
    ]
    kinds = only.split()
    return [r for r in rules if not kinds or r.id[len(fmt) + 1:] in kinds]


def _unknown(fmt: str, kinds: str) -> list[Rule]:
    return [Rule(f"{fmt}-unknown-{k}", "error", f"a {_FORMATS[fmt]} reference names a {k} "
                 "that is not defined", f"fix the name, or define the {k}")
            for k in kinds.split()]


RULE_LIST: tuple[Rule, ...] = (
    # -- physics: values no body or joint can have
    Rule("mass-negative", "error", "a mass is negative",
         "masses are in kilograms and at least zero"),
    Rule("mass-zero-with-inertia", "error",
         "a body has zero mass but a non-zero rotational inertia",
         "give the body its mass, or remove the inertia"),
    Rule("mass-zero-moving", "error", "a moving part of the model has no mass, so its dynamics are "
         "singular", "give the body (or a body welded to it or outboard of it) a positive mass"),
    Rule("mass-none", "warning", "no body of a model has mass: a description for kinematics "
         "and drawing, or one body pybullet keeps fixed; its dynamics cannot be simulated",
         "give the links their masses and inertias if the model is to be simulated, or weld "
         "a fixed object to the world"),
    Rule("inertia-not-positive", "error", "a rotational inertia has a negative principal moment",
         "use the moments of a real shape, e.g. a box's m(b²+c²)/12, ..."),
    Rule("inertia-triangle", "error", "a rotational inertia breaks the triangle inequality "
         "(Ixx + Iyy >= Izz for its principal moments)",
         "use the moments of a real shape; no two principal moments may sum below the third"),
    Rule("inertia-invalid", "error", "an inertia cannot be physical or cannot be computed",
         "give the body an inertia of a real shape"),
    Rule("inertia-zero", "warning", "a moving body has mass but no rotational inertia about the "
         "axis it turns on", "add an <inertia> (a point mass on a rotating joint is singular)"),
    Rule("number-nan", "error", "a number is NaN", "write a finite number"),
    Rule("number-not-finite", "error", "a number that must be finite is infinite",
         "write a finite number"),
    Rule("number-malformed", "warning", "a number is only partly a number ('1,2' is read as 1, "
         "'0x1p3' as 0), as Drake reads it", "write a plain decimal number"),
    Rule("value-out-of-range", "error", "a value is outside the range it must lie in (a negative "
         "damping, stiffness, length, friction, ...)",
         "use a value in the range the message names"),
    Rule("limit-inverted", "error", "a lower limit is above its upper limit",
         "swap lower and upper"),
    Rule("limit-infinite", "warning", "a lower limit is +inf or an upper limit is -inf, so no "
         "position satisfies it (Drake keeps it)",
         "write -inf for the lower limit and inf for the upper, or leave the limit out"),
    Rule("limit-empty", "warning", "a joint's lower and upper limits are equal, so it cannot move",
         "make it a fixed joint, or widen the range"),
    Rule("axis-zero", "error", "an axis or direction is the zero vector",
         "give a non-zero direction such as 0 0 1"),
    Rule("units-suspicious", "warning", "a value is so large or small that its units are probably "
         "wrong",
         "lengths are in metres, masses in kilograms, inertias in kg·m², angles in radians"),
    # -- the tree
    Rule("joint-same-body", "error", "a joint or constraint joins a body to itself",
         "name two different links"),
    Rule("kinematic-loop", "error", "the joints form a loop, which a tree of joints cannot hold",
         "cut the loop: replace one joint by a constraint (a loop joint)"),
    Rule("body-disconnected", "warning", "a body of an articulated model is not attached to it and "
         "will fall freely", "connect it with a joint (a fixed joint if it should not move)"),
    Rule("constraint-needs-sap", "error", "a constraint is declared for a plant that cannot hold "
         "constraints", "use a continuous plant or the sap contact approximation"),
    Rule("constraint-left-out", "warning", "a constraint the file declares is left out of a plant "
         "that cannot hold constraints", "read the model into a continuous plant or one using "
         "the sap contact approximation (--time-step 0 or --contact-approximation sap)"),
    # -- names
    Rule("name-duplicate", "error", "two elements of one kind share a name",
         "rename one of them; names must be unique within a model"),
    Rule("name-renamed", "warning", "a name is used twice, so one element was renamed",
         "give each element its own name"),
    Rule("model-unknown-name", "error", "a name looked up in the model does not exist",
         "fix the name"),
    Rule("model-invalid", "error", "the model refused an element (see the message)",
         "fix the element the message names"),
    Rule("color-out-of-range", "warning", "a colour has a value outside [0, 1] "
         "(rgba='1e200 0 0 1'); it is kept as written, as Drake keeps it, and renderers clamp it",
         "write each of r, g, b, a between 0 and 1"),
    Rule("shape-zero-size", "warning", "a URDF <box> with a side of size 0: Drake refuses it; "
         "the default mode leaves that geometry out (pybullet and yourdfpy load the file)",
         "give the box positive sides, or remove the geometry"),
    Rule("shape-invalid", "error", "a shape has a size no shape can have (a negative radius, "
         "zero scale, ...)", "give positive sizes"),
    # -- files
    Rule("xml-syntax", "error", "the file is not well-formed XML", "fix the XML at the line given"),
    Rule("xacro-macros-only", "error", "a xacro file that makes no link and only defines "
         "macros: a library for another xacro file to include and call, not a model",
         "load the xacro file that includes and calls the macros"),
    Rule("xacro-error", "error", "a xacro file cannot be expanded (an undefined property or "
         "macro, a bad expression, a missing include or package)",
         "fix the xacro at the line given, or add the package it finds"),
    Rule("xacro-warning", "warning", "xacro warned while expanding the file",
         "see xacro's message"),
    Rule("xml-leniency", "warning", "XML that tinyxml2 (Drake's reader) accepts but strict XML "
         "does not: an odd declared version, a bare '&', text that is not UTF-8, content after "
         "the root", "write the XML as the message says"),
    Rule("xml-value-invalid", "error", "an attribute does not hold the numbers it should",
         "write the number of values the message names"),
    Rule("xml-version", "note", "the XML declaration gives no version or one that is not "
         "XML's; the file is read as XML 1.0, as tinyxml2 (Drake, pybullet), urdfdom and "
         "Python's ElementTree read it (strict parsers such as lxml refuse it)",
         "write <?xml version=\"1.0\"?>"),
    Rule("xml-unsupported", "note", "an element or attribute is not read and is ignored",
         "nothing to fix if the simulators you target read it"),
    Rule("file-missing", "error", "a referenced file does not exist",
         "fix the path, or add the file"),
    Rule("file-unreadable", "error", "a file cannot be read as text", "save it as UTF-8"),
    Rule("file-type-unknown", "error", "the file suffix names no model format",
         "use .urdf, .sdf, .xml (MuJoCo), .dmd.yaml or .obj"),
    Rule("mesh-missing", "error", "a mesh file does not exist",
         "fix the path (package:// URIs need the package), or add the mesh"),
    Rule("mesh-unreadable", "error", "a mesh file cannot be read or measured",
         "re-export the mesh (closed, consistently wound triangles)"),
    Rule("mesh-collision-hull", "error", "a collision mesh's convex hull cannot be computed "
         "(the file type has no hull in Drake)", "use an .obj, .vtk or .gltf mesh for collision"),
    Rule("mesh-not-rendered", "note", "a visual mesh of a type that Drake's cameras do not render",
         "convert it to .obj or .gltf if cameras should see it"),
    Rule("package-unknown", "error", "a package:// or model:// URI names an unknown package",
         "add a package.xml above the file, or pass --package NAME=DIR"),
    Rule("package-found-by-name", "warning", "a package:// URI names a package the map does not "
         "have, and its files are read from a folder of that name above the model (Drake "
         "refuses this)", "pass --package NAME=DIR, or add a package.xml to that folder"),
    Rule("package-xml-unreadable", "warning", "a package.xml in the model's folder or above it "
         "cannot be read (not a regular file, not XML, no <name>); the package it would name "
         "is unknown", "fix or remove that package.xml"),
    Rule("package-invalid", "error", "the package map cannot be built (a missing folder, two "
         "folders for one package)", "fix the package folders"),
    Rule("file-uri-relative", "warning", "a file:// URI that holds a relative path "
         "(file://meshes/a.dae) is read from the model's folder, as Gazebo, pybullet and "
         "yourdfpy do (Drake takes the first folder for a host name and refuses the file)",
         "write the relative path without file://, or use package://"),
    Rule("uri-scheme", "error", "a URI scheme that is not read (no network access)",
         "use file://, package:// or model://"),
    Rule("uri-relative", "error", "a relative path in a model read from a string",
         "use package:// or an absolute path"),
    Rule("include-cycle", "error", "files include each other in a cycle", "break the cycle"),
    Rule("depth-limit", "error", "elements, YAML collections or included files are nested deeper "
         "than mbparse reads (the message names the limit)", "flatten the nesting"),
    Rule("size-limit", "error", "the model would have more elements than mbparse builds (an XML "
         "file of more than 250,000 elements, a directives file of more than 100,000 values, "
         "a model of more than 10,000 bodies, MJCF "
         "<replicate> copies, files included again and again, an attribute listing more than "
         "3,000,000 numbers, a value of a few numbers longer than 65,536 characters that is not "
         "those numbers, a model file of more than 64 MiB, a mesh of more than 2,000,000 "
         "triangles; the message names the limit and the flag that raises it)",
         "split the model into files, make fewer copies, include each file fewer times, give "
         "a large mesh as a mesh file, or write the value's numbers alone; for a large model "
         "you trust, raise the limit with the flag the message names (--max-elements N and "
         "the like; 0: no limit) or lift them all with --no-size-limits"),
    Rule("too-many-warnings", "warning", "a load gave more than 10,000 warnings; the rest are "
         "not listed", "fix the warnings listed, then check again"),
    Rule("file-not-regular", "error", "a path names a device, FIFO or folder, not a regular file",
         "name a regular file"),
    Rule("path-escapes-package", "error", "a package:// or model:// path climbs out of its "
         "package with '..'", "name the other package in the URI instead"),
    # -- Drake specifics
    Rule("drake-refuses", "note", "Drake refuses this for a limit of its own; mbparse reads it",
         "only matters if Drake loads the file (see the message)"),
    Rule("collision-filter-group", "error", "a collision filter group names a group or member "
         "that does not exist", "fix the group or member name"),
    Rule("proximity-invalid", "error", "contact (proximity) properties are contradictory or "
         "out of range", "fix the property the message names"),
    Rule("proximity-ignored", "warning", "a contact (proximity) property is ignored",
         "remove the property, or the setting that makes it meaningless"),
    # -- per format
    *_family("urdf"), *_unknown("urdf", "link joint frame material"),
    Rule("urdf-unknown-attribute", "warning", "an attribute the URDF specification does not give "
         "its element (often a typo, such as lowr for lower); it is ignored",
         "check the spelling: the message suggests the closest known name"),
    Rule("urdf-unknown-element", "warning", "an element that is neither URDF nor one of its "
         "known extensions; it is ignored", "check the spelling, or remove it"),
    Rule("urdf-mimic-invalid", "error", "a <mimic> that cannot be honoured",
         "mimic another single-dof joint"),
    Rule("urdf-number-commas", "warning", "a vector whose numbers are separated by commas "
         "(xyz=\"0.07, 0, -0.69\"); pybullet and iDynTree read it, urdfdom, yourdfpy and Drake "
         "refuse it", "separate the numbers by spaces only"),
    *_family("sdf"), *_unknown("sdf", "reference"),
    Rule("sdf-unknown-element", "error", "an element that is not part of SDFormat (Drake "
         "refuses it; loading in the default mode ignores it with a warning, as libsdformat does)",
         "check the spelling against the specification, or remove it"),
    Rule("sdf-unknown-attribute", "error", "an attribute that is not part of SDFormat (Drake "
         "refuses it; loading in the default mode ignores it with a warning)",
         "check the spelling against the specification, or remove it"),
    Rule("sdf-frame-cycle", "error", "poses or frames refer to each other in a cycle",
         "make one of them relative to a frame outside the cycle"),
    Rule("sdf-name-reserved", "error", "a name SDFormat reserves (world, __model__, ...)",
         "choose another name"),
    Rule("sdf-world-link-renamed", "warning", "a <link name='world'> with contents (pybullet's "
         "free-base grippers): Drake refuses the reserved name; the default mode renames the link "
         "world_link and joins the model's joints that name 'world' to it, as pybullet does",
         "rename the link, and the joints' parent or child that name it"),
    Rule("sdf-value-empty", "warning", "an SDFormat value (a <mass>, a moment of inertia) "
         "is written empty; it takes the specification's default (1 kg, 1 kg·m²), as in "
         "libsdformat and Drake", "write the value"),
    Rule("sdf-version", "error", "an SDFormat version that cannot be read", "use 1.0 to 1.12"),
    Rule("sdf-mimic-invalid", "error", "a <drake:mimic> that cannot be honoured",
         "mimic another single-dof joint"),
    *_family("mjcf"), *_unknown("mjcf", "body joint site geom mesh material class"),
    Rule("mjcf-unknown-element", "warning", "an element MuJoCo's schema does not allow where "
         "it is (MuJoCo refuses the file); it is ignored",
         "check the spelling: the message suggests the closest known name"),
    Rule("mjcf-unknown-attribute", "warning", "an attribute MuJoCo's schema does not give its "
         "element (often a typo, such as rnage for range; MuJoCo refuses the file); it is ignored",
         "check the spelling: the message suggests the closest known name"),
    Rule("mjcf-include-root", "warning", "an included MJCF file's root is neither <mujoco> nor "
         "<mujocoinclude>; its children are spliced in all the same, as MuJoCo and Drake do",
         "check that the <include> names the file you meant"),
    Rule("mjcf-include-repeated", "warning", "a file is included more than once: MuJoCo refuses "
         "that ('already included'), Drake and mbparse splice it in again",
         "include the file once, or copy what it holds under other names"),
    Rule("mjcf-site-renamed", "note", "a site shares its name with a body or another frame: "
         "MJCF keeps names per kind, Drake's frames share one, so its frame gets a suffix",
         "rename the site if the frame's name matters"),
    Rule("mjcf-body-ignored", "note", "a <body> written directly under <mujoco>, outside "
         "<worldbody>: MuJoCo ignores it (and so does the default mode); Drake adds it as a "
         "child of the world. Usually a file meant to be included inside a <worldbody>",
         "include the file inside a <worldbody>, or move the body into <worldbody>"),
    Rule("mjcf-mujoco-refuses", "warning", "MJCF that MuJoCo's compiler refuses (a sphere or "
         "plane without a size, an <inertial> without pos, a free joint on a nested body) and "
         "Drake reads; mbparse reads it as Drake does (check --for mujoco makes it an error)",
         "write what MuJoCo's message asks for (a positive size, a pos)"),
    Rule("joint-damping-negative", "warning", "a joint damping is negative: MuJoCo takes it "
         "(the joint gains energy as it moves), Drake refuses it; the default mode reads the "
         "joint with damping 0 and keeps the value for conversions",
         "use a damping of 0 or more"),
    Rule("mjcf-mesh-note", "warning", "a mesh was read with a caveat (see the message)",
         "re-export the mesh if the caveat matters"),
    *_family("dmd", "value-invalid structure conflict"),
    *_unknown("dmd", "frame joint model-instance"),
    Rule("dmd-syntax", "error", "the directives file is not valid YAML or not valid directives",
         "fix the directive at the line given"),
    Rule("dmd-file-type", "error", "a directive names a file that is not a model",
         "name a .urdf, .sdf, .xml or .obj file"),
    Rule("obj-invalid", "error", "the OBJ file cannot be used as a model",
         "fix the OBJ file as the message says"),
    Rule("obj-warning", "warning", "the OBJ reader worked around a problem in the file",
         "fix the line the message names"),
    Rule("obj-several-objects", "warning", "an OBJ file with several objects is read as one body",
         "split the file if the objects should move apart"),
    # -- OpenUSD stages (formats/usd)
    *_family("usd", "value-invalid structure unsupported"),
    Rule("usd-not-installed", "error", "reading USD needs Pixar's OpenUSD (usd-core)",
         "pip install 'mbparse[usd]'"),
    Rule("usd-unreadable", "error", "OpenUSD cannot open the stage",
         "check the file with usdcat or usdchecker"),
    Rule("usd-name-duplicate", "warning", "two prims of the model share a name; the second is "
         "read under a numbered name", "rename one of the prims"),
    Rule("usd-joint-chain", "note", "several joints join the same two bodies; they are read "
         "as a chain through massless bodies", "nothing to fix"),
    Rule("usd-loop-joint", "warning", "a joint closes a kinematic loop and is kept as a loop "
         "constraint", "nothing to fix if the simulators you target handle loops"),
    # -- the URDF → SDFormat converter
    Rule("convert-root", "error", "the converter needs a <robot> root", "convert a URDF file"),
    Rule("convert-attribute-missing", "error", "an element the converter reads lacks an attribute",
         "add the attribute"),
    Rule("convert-value-invalid", "error", "a value the converter cannot read", "fix the value"),
    Rule("convert-structure", "error", "the links do not form one tree", "join them by joints"),
    Rule("convert-conflict", "error", "an element is defined twice", "remove one definition"),
    Rule("convert-unknown-link", "error", "a joint names a link that is not defined",
         "define the link"),
    Rule("convert-unknown-material", "warning", "a visual names a material that is not defined",
         "define the material"),
    Rule("convert-unsupported", "note", "something the SDFormat output leaves out",
         "nothing to fix unless the element matters"),
    Rule("convert-frame-name-taken", "warning", "a frame of a lumped element is not written "
         "because its name is taken", "rename the link or joint"),
    Rule("convert-gazebo-reference", "warning", "a <gazebo reference> names no link or joint",
         "fix the reference"),
    Rule("convert-warning", "warning", "the converter worked around a problem", "see the message"),
    # -- portability: how each consumer reads the file (check --for CONSUMER)
    *(Rule(f"for-{c}-not-read", "warning", f"{t} does not load files of this format",
           "convert the file to a format it reads (mbparse convert)")
      for c, t in (("drake", "Drake"), ("mujoco", "MuJoCo"), ("gazebo", "Gazebo"),
                   ("pybullet", "pybullet"),
                   ("isaac", "Isaac Sim"), ("ros", "ROS (urdfdom)"))),
    Rule("for-drake-refuses", "warning", "Drake 1.51 refuses this (it loads nothing from the "
         "file); mbparse's default mode reads it", "see the message; --like drake reproduces "
         "Drake's refusal"),
    Rule("for-drake-ignores", "warning", "Drake 1.51 warns about this and reads the file "
         "without it, or reads it differently (MJCF features Drake does not support)",
         "leave the feature out, or expect Drake to behave as the message says"),
    Rule("for-drake-massless-link", "warning", "a moving URDF link without <inertial>: Drake "
         "gives it zero mass (pybullet 1 kg; MuJoCo and Isaac Sim compute one)",
         "give the link an <inertial>"),
    Rule("for-drake-mimic-needs-sap", "note", "a <mimic> that Drake keeps only on a plant "
         "using the SAP contact approximation; its default plant ignores it",
         "load it into a plant with discrete_contact_approximation 'sap'"),
    Rule("for-mujoco-root-welded", "warning", "MuJoCo's URDF importer fixes the root link to "
         "the world, where Drake and pybullet let it float",
         "add a floating joint in an MJCF wrapper, or a fixed joint to 'world' for all"),
    Rule("for-mujoco-fixed-fused", "warning", "MuJoCo fuses a link joined by a fixed joint "
         "into its parent (fusestatic), so no body has its name",
         "add <mujoco><compiler fusestatic=\"false\"/></mujoco> to keep the body"),
    Rule("for-mujoco-visual-discarded", "note", "MuJoCo discards a URDF's <visual> elements "
         "(discardvisual)", "add <mujoco><compiler discardvisual=\"false\"/></mujoco>"),
    Rule("for-mujoco-mass-from-geoms", "warning", "a URDF link without <inertial>: MuJoCo "
         "computes a mass from its collision shapes (or refuses a moving body with none)",
         "give the link an <inertial>"),
    Rule("for-mujoco-package-uri", "warning", "MuJoCo does not resolve package:// or "
         "model:// mesh URIs and fails to open them",
         "use paths relative to the model (or <compiler meshdir>)"),
    Rule("for-mujoco-refuses", "error", "MuJoCo's compiler refuses the MJCF file (see the "
         "message, which gives MuJoCo's reason)", "write what MuJoCo's message asks for"),
    Rule("for-mujoco-mesh-format", "warning", "a mesh MuJoCo cannot decode (it reads STL, OBJ "
         "and MSH); it refuses the model", "convert the mesh to STL or OBJ"),
    Rule("for-gazebo-link-dropped", "warning", "Gazebo's URDF converter leaves out a link "
         "without mass, with its joint and the links below it",
         "give the link an <inertial> with a positive mass"),
    Rule("for-gazebo-fixed-lumped", "warning", "Gazebo's URDF converter lumps the child link of "
         "a fixed joint into its parent; neither name exists in Gazebo",
         "add <gazebo reference=\"JOINT\"><preserveFixedJoint>true</preserveFixedJoint>"
         "</gazebo> if the name matters"),
    Rule("for-gazebo-package-uri", "warning", "Gazebo finds package:// URIs only on "
         "GZ_SIM_RESOURCE_PATH", "add the folder holding the package to GZ_SIM_RESOURCE_PATH, "
         "or use model:// URIs"),
    Rule("for-gazebo-mesh-format", "warning", "a mesh Gazebo's mesh loader does not read",
         "convert the mesh to COLLADA, STL, OBJ or glTF"),
    Rule("for-pybullet-default-inertia", "warning", "a URDF link without <inertial>: pybullet "
         "gives it 1 kg and unit inertia, where Drake gives it none",
         "give the link an <inertial>"),
    Rule("for-pybullet-inertia-from-collision", "warning", "pybullet replaces the file's "
         "inertia tensors by ones computed from the collision shapes by default",
         "load with flags=pybullet.URDF_USE_INERTIA_FROM_FILE"),
    Rule("for-pybullet-mesh-format", "warning", "a mesh pybullet's URDF importer does not read "
         "(it reads OBJ, STL, COLLADA, CDF, VTK): loadURDF refuses the file",
         "convert the mesh to OBJ or STL"),
    Rule("for-pybullet-mesh-not-found", "warning", "a mesh pybullet will not find (it drops "
         "file://, package:// and model:// and searches the folders above the URDF): "
         "loadURDF refuses the file", "use a path relative to the URDF or to a folder above it"),
    Rule("for-pybullet-mimic-ignored", "warning", "pybullet does not read <mimic>",
         "couple the joints with createConstraint(..., JOINT_GEAR, ...)"),
    Rule("for-ros-refuses", "error", "urdfdom, the URDF parser of ROS (check_urdf, "
         "robot_state_publisher, RViz, MoveIt), refuses the file: a <limit> without 'effort' or "
         "'velocity', a revolute or prismatic joint without <limit>, a joint type it does not "
         "know, a number or vector it cannot read, a tree with other than one root, ...",
         "add or correct what the message names (a misspelled attribute is named when one is "
         "written); check_urdf FILE says the same"),
    Rule("for-ros-element-dropped", "warning", "urdfdom cannot read a link's <inertial>, "
         "<visual> or <collision>: it logs an error and stops reading the link there",
         "add or correct what the message names"),
    Rule("for-isaac-base-fixed", "warning", "Isaac Sim's URDF importer fixes the root link to "
         "the world by default, where Drake and pybullet let it float",
         "import with fix_base off if the robot should float"),
    Rule("for-isaac-fixed-merged", "warning", "Isaac Sim's URDF importer merges the child link "
         "of a fixed joint into its parent by default", "import with merge_fixed_joints off if "
         "the link's prim matters"),
    Rule("for-isaac-mass-from-collision", "warning", "a URDF link without <inertial>: Isaac "
         "Sim computes a mass from its collision shapes", "give the link an <inertial>"),
    Rule("for-isaac-name-changed", "warning", "a link or joint name with characters USD does "
         "not allow; Isaac Sim renames it", "use letters, digits and '_' in names"),
    # -- what has no code of its own
    Rule("unclassified-error", "error", "a problem raised without a code (a bug in mbparse's "
         "codes; please report it)", "see the message"),
    Rule("unclassified-warning", "warning", "a warning raised without a code (a bug in mbparse's "
         "codes; please report it)", "see the message"),
    Rule("internal-error", "error", "mbparse failed while reading the file",
         "this is a bug in mbparse; please report it with the file"),
)

RULES: dict[str, Rule] = {r.id: r for r in RULE_LIST}
if len(RULES) != len(RULE_LIST):
    raise RuntimeError("two rules share an id")


def rule_of(code: str | None, severity: str) -> Rule:
    """The rule of a diagnostic's ``code`` (a generic one for no or an
    unknown code)."""
    rule = RULES.get(code or "")
    if rule is None:
        rule = RULES[GENERIC["error" if severity == "error" else "warning"]]
    return rule


def level_of(rule: Rule, raised_as: str) -> str:
    """A finding's level: an error a reader could not read past stays an
    error; a warning takes its rule's level (so ``inertia-triangle`` is an
    error in check though Drake only warns, and harmless input is a note)."""
    return "error" if raised_as == "error" else rule.severity


def as_markdown() -> str:
    """The rule table as the Markdown page ``docs/CHECK_RULES.md``."""
    lines = ["# `mbparse check` rules", "",
             "Generated from `src/mbparse/lint/rules.py` by "
             "`python tools/make_check_rules_doc.py`; do not edit by hand.", "",
             "Every diagnostic carries one of these codes. `error` fails `check` (exit 1); "
             "`warning` fails only with `--warnings-as-errors`; `note` is shown only with "
             "`--show-notes`. A problem a reader cannot read past is an error whatever its "
             "rule's level.", "",
             "| code | level | what it means | how to fix it |", "|---|---|---|---|"]
    for r in RULE_LIST:
        cells = [f"`{r.id}`", r.severity, r.summary, r.hint]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"

