"""Every rule of the table, triggered by a tiny input: the finding carries
the rule's code at the rule's level. Rules no input can trigger are listed
with the reason."""
from __future__ import annotations

import textwrap

import pytest

from mbparse.convert import urdf_to_sdf
from mbparse.diagnostics import DiagnosticPolicy, ParseError
from mbparse.lint import lint_file
from mbparse.lint.rules import RULES
from mbparse.loading import LoadOptions

I = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
LINK = f'<link name="a">{I}</link>'
AB = f'<link name="a">{I}</link><link name="b">{I}</link>'


def robot(body: str) -> str:
    return f'<robot name="r">{body}</robot>'


def rev(extra: str = "", parent: str = "a", child: str = "b", limit: str = "-1 1") -> str:
    lo, up = limit.split()
    return (f'<joint name="j" type="revolute"><parent link="{parent}"/><child link="{child}"/>'
            f'<axis xyz="0 0 1"/><limit lower="{lo}" upper="{up}" effort="1" velocity="1"/>'
            f'{extra}</joint>')


def sdf(model: str, version: str = "1.9") -> str:
    return f'<sdf version="{version}"><model name="m">{model}</model></sdf>'


def mjcf(world: str, top: str = "") -> str:
    return f'<mujoco model="m">{top}<worldbody>{world}</worldbody></mujoco>'


def dmd(*directives: str) -> str:
    return "directives:\n" + "".join(textwrap.dedent(d).strip("\n") + "\n" for d in directives)


def collision(properties: str) -> str:
    return ('<link name="a"><collision><geometry><box size="1 1 1"/></geometry>'
            f"<drake:proximity_properties>{properties}</drake:proximity_properties>"
            "</collision></link>")


SDF_LINK = '<link name="a"/>'
HINGE = '<body name="b"><joint name="h" type="hinge"/><geom type="sphere" size="0.1"/></body>'
STL = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n" \
      "endloop\nendfacet\nendsolid t\n"
BASE = f'<robot name="base"><link name="base">{I}</link></robot>'

# code → (file name, text, other files[, LoadOptions]); "{dir}" is the folder the
# files are in.
CONTINUOUS = LoadOptions(time_step=0.0)  # a plant that holds coupler constraints
LIKE_DRAKE = LoadOptions(like="drake")  # for what only Drake's mode refuses
TAMSI = LoadOptions(contact_approximation="tamsi")  # Drake's default: no constraints
EXAMPLES = {
    "mass-negative": ("r.urdf", robot('<link name="a"><inertial><mass value="-1"/></inertial></link>'), {}),
    "mass-zero-with-inertia": ("r.urdf", robot('<link name="a"><inertial><mass value="0"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "mass-none": ("r.urdf", robot('<link name="a"/><link name="b"/>' + rev()), {}),
    "mass-zero-moving": ("r.urdf", robot(f'{LINK}<link name="b"/>' + rev()), {}),
    "inertia-not-positive": ("r.urdf", robot('<link name="a"><inertial><mass value="1"/><inertia ixx="-1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "inertia-triangle": ("r.urdf", robot('<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="5" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "inertia-zero": ("r.urdf", robot(f'{LINK}<link name="b"><inertial><mass value="1"/></inertial></link>' + rev()), {}),
    "number-nan": ("m.xml", mjcf('<geom type="sphere" size="nan"/>'), {}),
    "number-not-finite": ("r.urdf", robot('<link name="a"><inertial><mass value="1"/><inertia ixx="1e400" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "value-out-of-range": ("r.urdf", robot(AB + rev('<dynamics damping="-1"/>')), {}),
    "limit-inverted": ("r.urdf", robot(AB + rev(limit="1 -1")), {}),
    "limit-infinite": ("m.sdf", sdf('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz><limit><lower>inf</lower><upper>inf</upper></limit></axis></joint>'), {}),
    "limit-empty": ("r.urdf", robot(AB + rev(limit="0.5 0.5")), {}),
    "axis-zero": ("r.urdf", robot(AB + '<joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint>'), {}),
    "units-suspicious": ("r.urdf", robot('<link name="a"><inertial><mass value="25000"/><inertia ixx="1000" iyy="1000" izz="1000" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "joint-same-body": ("r.urdf", robot(AB + rev(parent="a", child="a")), {}),
    "kinematic-loop": ("r.urdf", robot(AB + '<joint name="x" type="fixed"><parent link="a"/><child link="b"/></joint><joint name="y" type="fixed"><parent link="b"/><child link="a"/></joint>'), {}),
    "body-disconnected": ("r.urdf", robot(AB + f'<link name="c">{I}</link>' + rev()), {}),
    "constraint-needs-sap": ("r.urdf", robot(
        AB + '<drake:ball_constraint><drake:ball_constraint_body_A name="a"/>'
        '<drake:ball_constraint_body_B name="b"/><drake:ball_constraint_p_AP value="0 0 0"/>'
        '<drake:ball_constraint_p_BQ value="0 0 0"/></drake:ball_constraint>'), {}, TAMSI),
    "name-duplicate": ("r.urdf", robot(AB + f'<link name="c">{I}</link>' + rev() + rev(child="c")), {}),
    "name-renamed": ("r.urdf", robot('<link name="a"><visual name="v"><geometry><box size="1 1 1"/></geometry></visual><visual name="v"><geometry><box size="1 1 1"/></geometry></visual></link>'), {}),
    "model-unknown-name": ("d.dmd.yaml", dmd("- add_frame:\n    name: f\n    X_PF:\n      base_frame: nowhere"), {}),
    "model-invalid": ("d.dmd.yaml", dmd("- add_model:\n    name: r\n    file: file://{dir}/r.urdf\n    default_joint_positions:\n      j: [1, 2]"), {"r.urdf": robot(AB + rev())}),
    "shape-invalid": ("r.urdf", robot('<link name="a"><visual><geometry><box size="-1 1 1"/></geometry></visual></link>'), {}),
    "xml-syntax": ("r.urdf", "<robot name='r'><link>", {}),
    "xml-value-invalid": ("r.urdf", robot('<link name="a"><visual><origin xyz="1 2"/><geometry><box size="1 1 1"/></geometry></visual></link>'), {}),
    "xml-unsupported": ("r.urdf", '<robot name="r" version="1.0"><link name="a"/></robot>', {}),
    "file-missing": ("d.dmd.yaml", dmd("- add_model:\n    name: r\n    file: file://{dir}/nowhere.urdf"), {}),
    "file-unreadable": ("d.dmd.yaml", b"directives: \xff\xfe\n", {}),
    "file-type-unknown": ("r.txt", "text", {}),
    "mesh-missing": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="nowhere.obj"/></geometry></visual></link>'), {}),
    "mesh-unreadable": ("m.xml", mjcf('<geom type="mesh" mesh="bad"/>', '<asset><mesh name="bad" file="bad.obj"/></asset>'), {"bad.obj": "v 0 0 0\nf 1 2 3\n"}),
    "mesh-collision-hull": ("r.urdf", robot('<link name="a"><collision><geometry><mesh filename="p.stl"/></geometry></collision></link>'), {"p.stl": STL}, LoadOptions(like="drake")),
    "drake-refuses": ("r.urdf", robot('<link name="a"><collision><geometry><mesh filename="p.stl"/></geometry></collision></link>'), {"p.stl": STL}),
    "xacro-macros-only": ("r.xacro", '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:macro name="m"><link name="a"/></xacro:macro></robot>', {}),
    "xacro-error": ("r.xacro", '<robot name="r"><link name="${nowhere}"/></robot>', {}),
    "xacro-warning": ("r.xacro", '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="len" value="1"/><link name="a"/></robot>', {}),
    "xml-leniency": ("r.urdf", robot(LINK).replace('name="r"', 'name="r&d"'), {}),
    "xml-version": ("r.urdf", '<?xml version="0.0"?>\n' + robot(LINK), {}),
    "mesh-not-rendered": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="p.stl"/></geometry></visual></link>'), {"p.stl": STL}),
    "package-unknown": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="package://nowhere/m.obj"/></geometry></visual></link>'), {}),
    "package-found-by-name": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="package://hand/m.obj"/></geometry></visual></link>'), {"hand/m.obj": "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"}),
    "file-uri-relative": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="file://meshes/m.obj"/></geometry></visual></link>'), {"meshes/m.obj": "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"}),
    "joint-damping-negative": ("m.xml", mjcf('<body name="b"><joint name="h" damping="-1"/><geom size="0.1"/></body>'), {}),
    "mjcf-mujoco-refuses": ("m.xml", mjcf('<geom type="plane"/>'), {}),
    "shape-zero-size": ("r.urdf", robot('<link name="a"><visual><geometry><box size="0 0 0"/></geometry></visual></link>'), {}),
    "sdf-value-empty": ("m.sdf", sdf('<link name="a"><inertial><mass></mass></inertial></link>'), {}),
    "color-out-of-range": ("r.urdf", robot('<link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="m"><color rgba="2 0 0 1"/></material></visual></link>'), {}),
    "uri-scheme": ("r.urdf", robot('<link name="a"><visual><geometry><mesh filename="https://example.com/m.obj"/></geometry></visual></link>'), {}),
    "include-cycle": ("d.dmd.yaml", dmd("- add_directives:\n    file: file://{dir}/d.dmd.yaml"), {}),
    "too-many-warnings": ("r.urdf", robot('<link name="a">' + "<foo/>" * 10_001 + "</link>"), {}),
    "size-limit": ("m.xml", '<mujoco model="m"><worldbody><replicate count="100000">'
                   '<body><geom size="1"/></body></replicate></worldbody></mujoco>', {}),
    "depth-limit": ("d.dmd.yaml", "directives:\n- " + "[" * 200 + "]" * 200 + "\n", {}),
    "file-not-regular": ("d.dmd.yaml", dmd("- add_model:\n    name: z\n    file: file:///dev/zero"), {}),
    "path-escapes-package": ("m.sdf", sdf('<link name="a"/><include><uri>package://p/../../x.sdf</uri></include>'),
                             {"package.xml": "<package><name>p</name></package>"}),
    "number-malformed": ("r.urdf", robot('<link name="a"><inertial><mass value="1,5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'), {}),
    "collision-filter-group": ("r.urdf", robot(LINK + '<drake:collision_filter_group name="g"><drake:member link="nowhere"/></drake:collision_filter_group>'), {}),
    "proximity-invalid": ("r.urdf", robot(collision(
        '<drake:hunt_crossley_dissipation value="-1"/>')), {}),
    "proximity-ignored": ("r.urdf", robot(collision(
        '<drake:rigid_hydroelastic/><drake:hydroelastic_modulus value="1e7"/>')), {}),
    "urdf-root": ("r.urdf", "<robt/>", {}),
    "urdf-attribute-missing": ("r.urdf", robot("<link/>"), {}),
    "urdf-element-missing": ("r.urdf", robot(AB + '<joint name="j" type="fixed"><child link="b"/></joint>'), {}),
    "urdf-value-invalid": ("r.urdf", robot(AB + '<joint name="j" type="bogus"><parent link="a"/><child link="b"/></joint>'), {}),
    "urdf-structure": ("r.urdf", robot(AB + '<drake:joint name="j" type="curvilinear"><parent link="a"/><child link="b"/><drake:curves/></drake:joint>'), {}),
    "urdf-conflict": ("r.urdf", robot(collision("<drake:soft_hydroelastic/>")), {}),
    "urdf-unsupported": ("r.urdf", robot(AB + rev('<dynamics friction="0.1"/>')), {}),
    "urdf-not-supported": ("r.urdf", robot(LINK + "<drake:tendon_constraint/>"), {}),
    "urdf-unknown-link": ("r.urdf", robot(AB + rev(parent="nowhere")), {}),
    "urdf-unknown-joint": ("r.urdf", robot(AB + rev('<mimic joint="nowhere"/>')), {}, LIKE_DRAKE),
    "urdf-unknown-frame": ("r.urdf", robot(
        AB + '<drake:linear_bushing_rpy><drake:bushing_frameA name="nowhere"/>'
        '<drake:bushing_frameC name="b"/>' + "".join(
            f'<drake:bushing_{k} value="1 1 1"/>' for k in (
                "torque_stiffness", "torque_damping", "force_stiffness", "force_damping"))
        + "</drake:linear_bushing_rpy>"), {}),
    "urdf-unknown-attribute": ("r.urdf", robot('<link name="a"><inertial><mass valeu="1"/></inertial></link>'), {}),
    "urdf-unknown-material": ("r.urdf", robot('<link name="a"><visual><geometry><box size="1 1 1"/></geometry><material name="nowhere"/></visual></link>'), {}, LIKE_DRAKE),
    "urdf-unknown-element": ("r.urdf", robot(LINK + "<jiont/>"), {}),
    "urdf-mimic-invalid": ("r.urdf", robot(AB + rev('<mimic joint="j"/>')), {}, CONTINUOUS),
    "urdf-number-commas": ("r.urdf", robot('<link name="a"><visual><geometry><box size="1, 1, 1"/></geometry></visual></link>'), {}),
    "sdf-root": ("m.sdf", "<sfd/>", {}),
    "sdf-attribute-missing": ("m.sdf", sdf("<link/>"), {}),
    "sdf-element-missing": ("m.sdf", sdf(SDF_LINK + '<link name="b"/><joint name="j" type="revolute"><parent>a</parent><axis><xyz>0 0 1</xyz></axis></joint>'), {}),
    "sdf-value-invalid": ("m.sdf", sdf('<link name="a"><pose>1 2</pose></link>'), {}),
    "sdf-structure": ("m.sdf", sdf(""), {}),
    "sdf-conflict": ("m.sdf", '<sdf version="1.9"><model name="m"><pose relative_to="x">0 0 0 0 0 0</pose><link name="a"/></model></sdf>', {}),
    "sdf-unsupported": ("m.sdf", sdf(SDF_LINK + '<plugin name="p" filename="p.so"/>'), {}),
    "sdf-not-supported": ("m.sdf", sdf(SDF_LINK + '<link name="b"/><joint name="j" type="revolute2"><parent>a</parent><child>b</child></joint>'), {}),
    "sdf-unknown-reference": ("m.sdf", sdf(SDF_LINK + '<joint name="j" type="fixed"><parent>nowhere</parent><child>a</child></joint>'), {}),
    "sdf-unknown-element": ("m.sdf", sdf('<link name="a"><bogus/></link>'), {}),
    "sdf-unknown-attribute": ("m.sdf", sdf('<link name="a" bogus="1"/>'), {}),
    "sdf-frame-cycle": ("m.sdf", sdf(SDF_LINK + '<frame name="f" attached_to="g"/><frame name="g" attached_to="f"/>'), {}),
    "sdf-name-reserved": ("m.sdf", sdf('<link name="__model__"/>'), {}),
    "sdf-world-link-renamed": ("m.sdf", sdf('<link name="world"><inertial><mass>1</mass></inertial></link>'), {}),
    "sdf-version": ("m.sdf", sdf(SDF_LINK, version="9.9"), {}),
    "sdf-mimic-invalid": ("m.sdf", sdf(
        SDF_LINK + '<link name="b"/><joint name="j" type="revolute"><parent>a</parent>'
        '<child>b</child><axis><xyz>0 0 1</xyz></axis>'
        '<drake:mimic joint="j" multiplier="1" offset="0"/></joint>'), {}, CONTINUOUS),
    "package-xml-unreadable": ("pkg/m.urdf", "<robot name='r'><link name='a'/></robot>",
                               {"pkg/package.xml": "<package><name></name></package>"}),
    "mjcf-root": ("m.xml", "<mujoko/>", {}),
    "mjcf-include-root": ("m.xml", mjcf("", '<include file="f.xml"/>'), {"f.xml": "<robot/>"}),
    "mjcf-include-repeated": ("m.xml", mjcf("", '<include file="f.xml"/><include file="f.xml"/>'),
                              {"f.xml": "<mujocoinclude/>"}),
    "mjcf-attribute-missing": ("m.xml", mjcf("", "<asset><material/></asset>"), {}),
    "constraint-left-out": ("m.xml", '<mujoco model="m"><worldbody><body name="a"><joint name="j1"/>'
                            '<geom size="1"/><body name="b"><joint name="j2"/><geom size="1"/></body>'
                            '</body></worldbody><equality><joint joint1="j1" joint2="j2"/></equality>'
                            '</mujoco>', {}, TAMSI),
    "mjcf-body-ignored": ("m.xml", mjcf("", '<body name="b"><geom size="1"/></body>'), {}),
    "mjcf-site-renamed": ("m.xml", mjcf('<body name="b"><site name="b"/></body>'), {}),
    "mjcf-element-missing": ("m.xml", mjcf('<body><inertial pos="0 0 0" mass="1"/></body>'), {}),
    "mjcf-value-invalid": ("m.xml", mjcf('<geom type="sphere" size="a"/>'), {}),
    "mjcf-structure": ("m.xml", mjcf('<joint type="hinge"/>'), {}),
    "mjcf-conflict": ("m.xml", mjcf('<geom type="capsule" pos="0 0 1" fromto="0 0 0 0 0 1" size="0.1"/>'), {}),
    "mjcf-unsupported": ("m.xml", mjcf("", '<option timestep="0.002"/>'), {}),
    "mjcf-not-supported": ("m.xml", mjcf("", '<compiler coordinate="global"/>'), {}),
    "mjcf-unknown-body": ("m.xml", mjcf(HINGE).replace(
        "</mujoco>", '<equality><connect body1="nowhere" anchor="0 0 0"/></equality></mujoco>'),
        {}),
    "mjcf-unknown-joint": ("m.xml", mjcf(HINGE).replace("</mujoco>", '<actuator><motor joint="nowhere"/></actuator></mujoco>'), {}),
    "mjcf-unknown-site": ("m.xml", mjcf(HINGE).replace("</mujoco>", '<equality><connect site1="s1" site2="s2"/></equality></mujoco>'), {}),
    "mjcf-unknown-geom": ("m.xml", mjcf(HINGE).replace("</mujoco>", '<contact><pair geom1="nowhere" geom2="x"/></contact></mujoco>'), {}),
    "mjcf-unknown-mesh": ("m.xml", mjcf('<geom type="mesh" mesh="nowhere"/>'), {}),
    "mjcf-unknown-material": ("m.xml", mjcf('<geom type="sphere" size="1" material="nowhere"/>'), {}),
    "mjcf-unknown-class": ("m.xml", mjcf('<geom class="nowhere" type="sphere" size="1"/>'), {}),
    "mjcf-unknown-element": ("m.xml", mjcf("", "<bogus/>"), {}),
    "mjcf-unknown-attribute": ("m.xml", mjcf('<geom type="sphere" size="0.1" desnity="5"/>'), {}),
    "dmd-value-invalid": ("d.dmd.yaml", dmd("- add_model:\n    name: ''\n    file: file://{dir}/r.urdf"), {"r.urdf": BASE}),
    "dmd-structure": ("d.dmd.yaml", dmd("- add_collision_filter_group:\n    name: g\n    model_namespace: ''\n    members: []"), {}),
    "dmd-conflict": ("d.dmd.yaml", dmd("- add_frame:\n    name: f\n    X_PF:\n      base_frame: world\n- add_weld:\n    parent: world\n    child: f\n    X_PC:\n      base_frame: world"), {}),
    "dmd-unknown-frame": ("d.dmd.yaml", dmd("- add_model:\n    name: r\n    file: file://{dir}/r.urdf", "- add_weld:\n    parent: world\n    child: r::nowhere"), {"r.urdf": BASE}),
    "dmd-unknown-joint": ("d.dmd.yaml", dmd("- add_model:\n    name: r\n    file: file://{dir}/r.urdf\n    default_joint_positions:\n      nowhere: [1]"), {"r.urdf": BASE}),
    "dmd-unknown-model-instance": ("d.dmd.yaml", dmd("- add_weld:\n    parent: world\n    child: nowhere::base"), {}),
    "dmd-syntax": ("d.dmd.yaml", "directives: [\n", {}),
    "dmd-file-type": ("d.dmd.yaml", dmd("- add_model:\n    name: r\n    file: file://{dir}/r.txt"), {"r.txt": "x"}),
    "obj-invalid": ("o.obj", "v 0 0 0\n", {}),
    "obj-warning": ("o.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 3 4\nf 1 2\n", {}),
    "obj-several-objects": ("o.obj", "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no b\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n", {}),
}

# OpenUSD stages (with usd-core; without it, the rules are listed as not
# feasible here and usd-not-installed is tested in test_usd.py).
def _usd(body: str) -> str:
    return f'#usda 1.0\n(\n    defaultPrim = "w"\n)\ndef Xform "w"\n{{\n{body}\n}}\n'


def _usd_body(name: str, extra: str = "") -> str:
    return (f'def Xform "{name}" ( prepend apiSchemas = ["PhysicsRigidBodyAPI", '
            f'"PhysicsMassAPI"] )\n{{\n float physics:mass = 1\n'
            f' float3 physics:diagonalInertia = (1, 1, 1)\n{extra}\n}}\n')


def _usd_joint(name: str, a: str, b: str, axis: str = "X") -> str:
    return (f'def PhysicsRevoluteJoint "{name}"\n{{\n rel physics:body0 = </w/{a}>\n'
            f' rel physics:body1 = </w/{b}>\n uniform token physics:axis = "{axis}"\n}}\n')


USD_EXAMPLES = {
    "usd-value-invalid": ("u.usda", _usd(_usd_body("a", 'def Cube "c" ( prepend apiSchemas = '
                                                   '["PhysicsCollisionAPI"] )\n{\n double '
                                                   'size = 0\n}')), {}),
    "usd-structure": ("u.usda", _usd(_usd_body("a") + _usd_joint("j", "a", "nothing")), {}),
    "usd-unsupported": ("u.usda", _usd(_usd_body("a", 'def Cone "c" ( prepend apiSchemas = '
                                                 '["PhysicsCollisionAPI"] )\n{\n}')), {}),
    "usd-unreadable": ("u.usda", "#usda 1.0\ndef Xform \"a\" {\n", {}),
    "usd-name-duplicate": ("u.usda", _usd('def Xform "p"\n{\n' + _usd_body("a") + '}\n'
                                          'def Xform "q"\n{\n' + _usd_body("a") + '}'), {}),
    "usd-loop-joint": ("u.usda", _usd(_usd_body("a") + _usd_body("b") + _usd_body("c")
                                      + _usd_joint("ab", "a", "b") + _usd_joint("bc", "b", "c")
                                      + _usd_joint("ca", "c", "a")), {}),
    "usd-joint-chain": ("u.usda", _usd(_usd_body("a") + _usd_body("b")
                                       + _usd_joint("x", "a", "b")
                                       + _usd_joint("y", "a", "b", "Y")), {}),
}
try:
    import pxr.UsdPhysics  # noqa: F401
    EXAMPLES.update(USD_EXAMPLES)
    NO_USD = {}
except ImportError:
    NO_USD = dict.fromkeys([*USD_EXAMPLES, "for-drake-not-read"], "needs usd-core")

# The portability rules (check --for CONSUMER): one URDF that every consumer
# reads differently, and files of formats a consumer does not load.
PORTABLE = robot(
    '<link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" '
    'ixz="0" iyz="0"/></inertial>'
    '<visual><geometry><mesh filename="package://nowhere/v.stl"/></geometry></visual>'
    '<visual><geometry><mesh filename="v.ply"/></geometry></visual>'
    '<collision><geometry><mesh filename="p.stl"/></geometry></collision>'
    '<collision><geometry><mesh filename="c.glb"/></geometry></collision>'
    '<collision><geometry><mesh filename="package://nowhere/c.obj"/></geometry></collision>'
    '</link>'
    '<link name="tool.tip"/><link name="arm"><collision><geometry><box size="1 1 1"/>'
    f'</geometry></collision></link><link name="arm2">{I}</link>'
    '<joint name="fix" type="fixed"><parent link="base"/><child link="tool.tip"/></joint>'
    + rev(parent="base", child="arm") + rev('<mimic joint="j"/>', parent="base", child="arm2")
    .replace('name="j"', 'name="j2"', 1))
PORTABLE_FILES = {"p.stl": STL, "v.ply": "ply\n", "c.glb": "glTF"}
SITE = mjcf('<body name="b"><joint type="hinge"/><site name="s"/><geom size="0.1"/></body>')
FOR = {
    **{code: ("r.urdf", PORTABLE, PORTABLE_FILES) for code in (
        "for-drake-refuses", "for-drake-massless-link", "for-drake-mimic-needs-sap",
        "for-mujoco-root-welded", "for-mujoco-fixed-fused", "for-mujoco-visual-discarded",
        "for-mujoco-mass-from-geoms", "for-mujoco-package-uri", "for-mujoco-mesh-format",
        "for-gazebo-link-dropped", "for-gazebo-fixed-lumped", "for-gazebo-package-uri",
        "for-gazebo-mesh-format", "for-pybullet-default-inertia",
        "for-pybullet-inertia-from-collision", "for-pybullet-mesh-format",
        "for-pybullet-mesh-not-found", "for-pybullet-mimic-ignored", "for-isaac-base-fixed",
        "for-isaac-fixed-merged", "for-isaac-mass-from-collision", "for-isaac-name-changed")},
    "for-ros-refuses": ("r.urdf", robot(AB + '<joint name="j" type="revolute"><parent link="a"/>'
                                         '<child link="b"/><limit effort="1" velocty="1"/>'
                                         '</joint>'), {}),
    "for-ros-element-dropped": ("r.urdf", robot('<link name="a"><visual><geometry><box/>'
                                                '</geometry></visual></link>'), {}),
    "for-ros-not-read": ("m.xml", SITE, {}),
    "for-drake-ignores": ("m.xml", SITE, {}),
    **({} if NO_USD else {"for-drake-not-read": ("u.usda", _usd(_usd_body("a")), {})}),
    "for-mujoco-not-read": ("m.sdf", sdf(SDF_LINK), {}),
    "for-isaac-not-read": ("m.sdf", sdf(SDF_LINK), {}),
    "for-gazebo-not-read": ("m.xml", SITE, {}),
    "for-pybullet-not-read": ("d.dmd.yaml", dmd("- add_frame:\n    name: f\n    X_PF:\n"
                                                "      base_frame: world"), {}),
    "for-mujoco-refuses": ("m.xml", mjcf('<geom type="plane"/>'), {}),
}

# The converter's rules (mbparse convert), triggered through urdf_to_sdf.
CONVERT = {
    "convert-root": "<robt/>",
    "convert-attribute-missing": "<robot name='r'><link/></robot>",
    "convert-value-invalid": "<robot name='r' version='2.0'><link name='a'/></robot>",
    "convert-structure": "<robot name='r'></robot>",
    "convert-conflict": "<robot name='r'><link name='a'/><link name='a'/></robot>",
    "convert-unknown-link": "<robot name='r'><link name='a'/><joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint></robot>",
    "convert-unknown-material": "<robot name='r'><link name='a'><visual><geometry><box size='1 1 1'/></geometry><material name='m'/></visual></link></robot>",
    "convert-unsupported": f"<robot name='r'>{AB}<joint name='j' type='floating'><parent link='a'/><child link='b'/></joint></robot>",
    "convert-gazebo-reference": "<robot name='r'><link name='a'/><gazebo reference='nowhere'><mu1>1</mu1></gazebo></robot>",
    "convert-warning": "<robot name='r'><material name='m'><color rgba='1 0 0'/></material><link name='a'/></robot>",
}

NOT_FEASIBLE = {
    "unclassified-error": "the fallback for a diagnostic raised without a code; a test checks there is none",
    "unclassified-warning": "the fallback for a warning raised without a code; a test checks there is none",
    "internal-error": "a bug in mbparse, not a property of any input",
    "package-invalid": "the package map's own refusal (conflicting folders), not a model file's",
    "uri-relative": "only for models read from a string (tested in test_check_rule_uri_relative)",
    "convert-frame-name-taken": "needs lumped links whose frame names collide (convert's own tests)",
    "inertia-invalid": "guards of MuJoCo's primitive-inertia formulas and SDFormat's automatic "
                       "inertia against overflow; no small finite input reaches them",
    "mjcf-mesh-note": "needs trimesh to read an ASCII STL (tested when it is installed)",
    "usd-not-installed": "only without usd-core (test_usd.py runs a Python without pxr)",
    **NO_USD,
}


def test_every_rule_has_an_example_or_a_reason():
    covered = set(EXAMPLES) | set(CONVERT) | set(NOT_FEASIBLE) | set(FOR)
    assert covered == set(RULES), sorted(set(RULES) ^ covered)


def _write(tmp_path, name, text, others):
    for other, content in {**others, name: text}.items():
        path = tmp_path / other
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content.replace("{dir}", str(tmp_path)))
    return str(tmp_path / name)


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_the_rule_is_reported_with_its_code_and_level(tmp_path, code):
    name, text, others, *options = EXAMPLES[code]
    findings = lint_file(_write(tmp_path, name, text, others), *options)
    hits = [f for f in findings if f.rule == code]
    assert hits, [(f.rule, f.message) for f in findings]
    for f in hits:
        assert f.severity == RULES[code].severity or f.severity == "error"
        assert f.hint == RULES[code].hint and f.file


@pytest.mark.parametrize("code", sorted(FOR))
def test_the_portability_rule_is_reported_for_its_consumer(tmp_path, code):
    name, text, others = FOR[code]
    consumer = code.split("-")[1]
    path = _write(tmp_path, name, text, others)
    hits = [f for f in lint_file(path, consumers=(consumer,)) if f.rule == code]
    assert hits and all(f.severity == RULES[code].severity and f.file for f in hits)
    assert code not in {f.rule for f in lint_file(path)}   # only when asked for


@pytest.mark.parametrize("code", sorted(CONVERT))
def test_the_converter_rule_is_raised_with_its_code(tmp_path, code):
    path = tmp_path / "r.urdf"
    path.write_text(CONVERT[code])
    policy = DiagnosticPolicy(emit=False)
    try:
        urdf_to_sdf(str(path), policy=policy)
        codes = {d.code for d in policy.warnings_seen}
    except ParseError as e:
        codes = {e.diagnostic.code}
    assert code in codes


def test_check_rule_uri_relative():
    from mbparse import MultibodyPlant, Parser, SceneGraph
    parser = Parser(MultibodyPlant(0.0), SceneGraph())
    parser.set_like_drake()   # the default mode leaves the mesh out with a warning
    with pytest.raises(ParseError) as e:
        parser.add_models_from_string(
            robot('<link name="a"><visual><geometry><mesh filename="m.obj"/></geometry>'
                  '</visual></link>'), "urdf")
    assert e.value.diagnostic.code == "uri-relative"


def test_check_rule_mjcf_mesh_note(tmp_path):
    pytest.importorskip("trimesh")
    name, text = "m.xml", mjcf('<geom type="mesh" mesh="p"/>',
                               '<asset><mesh name="p" file="p.stl"/></asset>')
    findings = lint_file(_write(tmp_path, name, text, {"p.stl": STL}))
    assert "mjcf-mesh-note" in {f.rule for f in findings}
