#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_manifests.py ROOT - validates the build manifests for the tools that do not
run here: PlatformIO's library.json with its extra script and examples, and the
Zephyr module (zephyr/module.yml, zephyr/CMakeLists.txt, zephyr/Kconfig,
port/zephyr/port.c, the samples it lists); and the release files (CHANGELOG.md,
LICENSE, version.h reached through stow/stow.h).

Schemas: library.json, module.yml and each sample.yaml are validated with
jsonschema (Debian's python3-jsonschema) against schemas written for these tests
from the fields PlatformIO's and Zephyr's documentation describe
(tests/consumers/schemas/); YAML is read with PyYAML (python3-yaml) and
zephyr/Kconfig with kconfiglib (python3-kconfiglib), the Kconfig implementation
Zephyr itself uses. Structural checks besides: every file the manifests name
exists, the versions agree with stow/version.h, every option of stow/config.h has
a Kconfig entry with config.h's range and default, the platforms library.json
lists are ones whose cores stow's ports build for (a table of PlatformIO
platforms and their architectures, below), platformio/select_port.py picks each
port for its compiler (run with a stand-in of PlatformIO's build environment), the
PlatformIO examples compile against declarations of the Arduino API they use
(tests/consumers/arduino_api), and the Zephyr port compiles against declarations
of the Zephyr API it uses (tests/consumers/zephyr_api). What it cannot show is
that PlatformIO or Zephyr themselves accept the files; tests/consumers/
zephyr_module.sh goes further for Zephyr (the module's CMake and linker snippets).

Prints "ok <what>" or "FAIL <what>: <why>" per check and ends with
"N passed, N failed"; exits 1 on any failure.
"""
import configparser
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:  # each check that needs it fails and says so
    jsonschema = None
try:
    import yaml
except ImportError:
    yaml = None
try:
    import kconfiglib
except ImportError:
    kconfiglib = None

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
results = []


def check(what, fn):
    try:
        problem = fn()
    except Exception as e:  # a crash in a check is a failure of that check
        problem = "%s: %s" % (type(e).__name__, e)
    if problem:
        print("FAIL %s: %s" % (what, problem))
    else:
        print("ok %s" % what)
    results.append(not problem)


def path(*parts):
    return os.path.join(ROOT, *parts)


def read(*parts):
    with open(path(*parts), encoding="utf-8") as f:
        return f.read()


def version_h():
    """M.m.p from stow/version.h, or None where it does not exist yet."""
    p = path("lib", "include", "stow", "version.h")
    if not os.path.exists(p):
        return None
    text = open(p, encoding="utf-8").read()
    parts = [re.search(r"^#define\s+STOW_VERSION_%s\s+(\d+)" % k, text, re.M) for k in
             ("MAJOR", "MINOR", "PATCH")]
    string = re.search(r'^#define\s+STOW_VERSION_STRING\s+"([^"]*)"', text, re.M)
    if not all(parts):
        raise ValueError("version.h lacks STOW_VERSION_MAJOR/MINOR/PATCH")
    numbers = ".".join(m.group(1) for m in parts)
    if string and string.group(1) != numbers:
        raise ValueError("STOW_VERSION_STRING %r is not %s" % (string.group(1), numbers))
    return numbers


def need(module, package):
    if module is None:
        raise RuntimeError("needs %s (apt-get install %s; run with Debian's /usr/bin/python3)"
                           % (package, package))


def schema_problems(document, schema_file):
    """jsonschema's complaints about document, one line each."""
    need(jsonschema, "python3-jsonschema")
    with open(path("tests", "consumers", "schemas", schema_file), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = jsonschema.Draft202012Validator(schema).iter_errors(document)
    return "; ".join("%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
                     for e in sorted(errors, key=lambda e: list(e.absolute_path))) or None


def is_str_or_str_list(v):
    return isinstance(v, str) or (isinstance(v, list) and v and all(isinstance(x, str) for x in v))


# ---------------------------------------------------------------- library.json
lib = {}


def lib_parses():
    global lib
    lib = json.loads(read("library.json"))
    if not isinstance(lib, dict):
        return "top level is not an object"
    return None


def lib_required():
    problems = []
    name = lib.get("name")
    # library.json reference: name (required) is slug style, up to 50 characters.
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9]([a-z0-9-]{0,48}[a-z0-9])?", name) \
            or "--" in name:
        problems.append("name must be a slug of up to 50 characters")
    version = lib.get("version")
    if not isinstance(version, str) or len(version) > 20 or \
            not re.fullmatch(r"\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?", version):
        problems.append("version must be a semantic version string")
    desc = lib.get("description")
    if not isinstance(desc, str) or not desc or len(desc) > 255:
        problems.append("description must be a string of 1..255 characters")
    return "; ".join(problems) or None


def lib_types():
    problems = []
    kinds = {
        "keywords": is_str_or_str_list,
        "license": lambda v: v == "MIT",
        "frameworks": is_str_or_str_list,
        "platforms": is_str_or_str_list,
        "headers": is_str_or_str_list,
        "build": lambda v: isinstance(v, dict),
        "examples": lambda v: isinstance(v, list) and v != [],
    }
    for key, ok in kinds.items():
        if key not in lib:
            problems.append("%s missing" % key)
        elif not ok(lib[key]):
            problems.append("%s has the wrong type or value" % key)
    known = {"name", "version", "description", "keywords", "authors", "repository", "homepage",
             "license", "frameworks", "platforms", "headers", "build", "examples", "export",
             "dependencies", "repository", "downloadUrl", "scripts", "customField"}
    unknown = set(lib) - known
    if unknown:
        problems.append("fields library.json does not have: %s" % ", ".join(sorted(unknown)))
    build = lib.get("build", {})
    build_kinds = {"srcDir": str, "includeDir": str, "srcFilter": None, "flags": None,
                   "unflags": None, "extraScript": str, "libArchive": bool, "libLDFMode": str,
                   "libCompatMode": str, "builder": str}
    for key, value in build.items():
        if key not in build_kinds:
            problems.append("build.%s is not a build field" % key)
        elif build_kinds[key] is None:
            if not is_str_or_str_list(value):
                problems.append("build.%s must be a string or a list of strings" % key)
        elif not isinstance(value, build_kinds[key]):
            problems.append("build.%s must be a %s" % (key, build_kinds[key].__name__))
    for key in ("srcDir", "includeDir", "srcFilter", "flags"):
        if key not in build:
            problems.append("build.%s missing" % key)
    for ex in lib.get("examples", []):
        if isinstance(ex, dict):
            if not (isinstance(ex.get("name"), str) and isinstance(ex.get("base"), str)
                    and is_str_or_str_list(ex.get("files"))):
                problems.append("an example object needs name, base and files")
        elif not isinstance(ex, str):
            problems.append("an example must be a glob or an object")
    return "; ".join(problems) or None


def lib_version():
    want = version_h()
    if want is None:
        # Nothing to compare with until stow/version.h exists: at least the form.
        return None if re.fullmatch(r"\d+\.\d+\.\d+", lib.get("version", "")) else "bad version"
    return None if lib.get("version") == want else \
        "library.json says %s, version.h %s" % (lib.get("version"), want)


def filter_patterns(value):
    items = value if isinstance(value, list) else re.findall(r"[+-]<[^>]*>", value)
    out = []
    for item in items:
        for sign, pattern in re.findall(r"([+-])<([^>]*)>", item):
            out.append((sign, pattern))
    return out


def lib_files():
    problems = []
    build = lib["build"]
    src_dir = path(build["srcDir"])
    include_dir = path(build["includeDir"])
    if not os.path.isdir(src_dir):
        problems.append("srcDir %s is not a directory" % build["srcDir"])
    if not os.path.isdir(include_dir):
        problems.append("includeDir %s is not a directory" % build["includeDir"])
    headers = lib["headers"] if isinstance(lib["headers"], list) else [lib["headers"]]
    for h in headers:
        if not os.path.isfile(os.path.join(include_dir, h)):
            problems.append("header %s is not in includeDir" % h)
    selected = set()
    for sign, pattern in filter_patterns(build["srcFilter"]):
        matches = glob.glob(os.path.join(src_dir, pattern))
        if sign == "+":
            if not matches:
                problems.append("srcFilter +<%s> matches no file" % pattern)
            selected.update(os.path.relpath(m, ROOT) for m in matches)
    # Every module of lib/ is built, and the library port's two files.
    for src in glob.glob(path("lib", "src", "*.c")):
        if os.path.relpath(src, ROOT) not in selected:
            problems.append("srcFilter leaves out %s" % os.path.relpath(src, ROOT))
    for port in ("port/cortex-m/port.c", "port/cortex-m/assert.c"):
        if port not in selected:
            problems.append("srcFilter leaves out %s" % port)
    for ex in lib["examples"]:
        if isinstance(ex, dict):
            files = ex["files"] if isinstance(ex["files"], list) else [ex["files"]]
            for f in files:
                if not glob.glob(path(ex["base"], f)):
                    problems.append("example %s: %s/%s does not exist" % (ex["name"], ex["base"], f))
        elif not glob.glob(path(ex)):
            problems.append("example %s matches no file" % ex)
    return "; ".join(problems) or None


# PlatformIO platforms and the cores of their boards (PlatformIO's platform
# documentation): stow builds for Arm Cortex-M (port/cortex-m) and 32-bit RISC-V in
# machine mode (port/riscv), not for AVR, Xtensa or 64-bit RISC-V.
PIO_PLATFORMS = {
    "ststm32": "cortex-m", "nordicnrf51": "cortex-m", "nordicnrf52": "cortex-m",
    "atmelsam": "cortex-m", "raspberrypi": "cortex-m", "nxplpc": "cortex-m",
    "nxpimxrt": "cortex-m", "freescalekinetis": "cortex-m", "siliconlabsefm32": "cortex-m",
    "infineonxmc": "cortex-m", "renesas-ra": "cortex-m", "maxim32": "cortex-m",
    "sifive": "riscv",
    # Not buildable: listed so that the check names why.
    "teensy": "avr and cortex-m (Teensy 2.0 is AVR)", "atmelavr": "avr", "atmelmegaavr": "avr",
    "espressif32": "xtensa and riscv32 with another ISA extension set", "espressif8266": "xtensa",
    "kendryte210": "riscv64", "native": "host",
}


def lib_schema():
    return schema_problems(lib, "library.schema.json")


def lib_platforms():
    listed = lib["platforms"] if isinstance(lib["platforms"], list) else [lib["platforms"]]
    problems = []
    for name in listed:
        arch = PIO_PLATFORMS.get(name)
        if arch is None:
            problems.append("%s: not in this check's table of platforms" % name)
        elif arch not in ("cortex-m", "riscv"):
            problems.append("%s: its boards are %s, which no stow port builds for" % (name, arch))
    return "; ".join(problems) or None


class FakePioEnv:
    """What platformio/select_port.py uses of PlatformIO's SCons environment."""

    def __init__(self, cc):
        self.vars = {"CC": cc, "SRC_FILTER": None, "CCFLAGS": []}

    def subst(self, text):
        return re.sub(r"\$(\w+)", lambda m: str(self.vars.get(m.group(1), "")), text)

    def Replace(self, **kw):
        self.vars.update(kw)

    def Append(self, **kw):
        for key, value in kw.items():
            self.vars.setdefault(key, [])
            self.vars[key] = list(self.vars[key]) + list(value)


def lib_extra_script():
    script = lib["build"].get("extraScript")
    if not script:
        return "no build.extraScript: the RISC-V platforms would build the Cortex-M port"
    code = compile(read(script), script, "exec")
    problems = []
    for cc, port in (("arm-none-eabi-gcc", "cortex-m"), ("riscv64-unknown-elf-gcc", "riscv"),
                     ("/opt/pio/toolchain-riscv/bin/riscv-none-elf-gcc", "riscv")):
        env = FakePioEnv(cc)
        exec(code, {"Import": lambda name: None, "env": env, "__name__": "SCons"})
        selected = set()
        for sign, pattern in filter_patterns(env.vars["SRC_FILTER"] or []):
            if sign == "+":
                matches = glob.glob(path(lib["build"]["srcDir"], pattern))
                if not matches:
                    problems.append("%s: +<%s> matches no file" % (cc, pattern))
                selected.update(os.path.relpath(m, ROOT) for m in matches)
        want = {os.path.relpath(f, ROOT) for f in glob.glob(path("lib", "src", "*.c"))}
        want |= {"port/%s/port.c" % port, "port/%s/assert.c" % port}
        if selected != want:
            problems.append("%s: builds %s, not %s" % (cc, sorted(selected ^ want), port))
        if port == "riscv" and "-mstrict-align" not in env.vars["CCFLAGS"]:
            problems.append("%s: no -mstrict-align" % cc)
    return "; ".join(problems) or None


def lib_examples():
    """Each example is a PlatformIO project whose environments use listed platforms, and
    its sources compile for two of their cores against the Arduino API's declarations."""
    problems = []
    listed = set(lib["platforms"] if isinstance(lib["platforms"], list) else [lib["platforms"]])
    cxx = shutil.which("arm-none-eabi-g++")
    if cxx is None:
        return "no arm-none-eabi-g++ to compile the examples with"
    for ex in lib["examples"]:
        base = path(ex["base"])
        ini = configparser.ConfigParser(interpolation=None)
        if not ini.read(os.path.join(base, "platformio.ini")):
            problems.append("%s: no platformio.ini" % ex["name"])
            continue
        envs = [sec for sec in ini.sections() if sec.startswith("env:")]
        if not envs:
            problems.append("%s: no [env:...]" % ex["name"])
        for sec in envs:
            platform = ini.get(sec, "platform", fallback=None)
            if platform not in listed:
                problems.append("%s [%s]: platform %s is not in library.json" % (ex["name"], sec,
                                                                                 platform))
        sources = glob.glob(os.path.join(base, "src", "*.c*"))
        if not sources:
            problems.append("%s: no src/*.c or *.cpp" % ex["name"])
        flags = ini.get("env", "build_flags", fallback="").split()
        with tempfile.TemporaryDirectory() as tmp:
            for cpu in ("-mcpu=cortex-m0plus", "-mcpu=cortex-m4"):
                for src in sources:
                    cmd = [cxx if src.endswith(".cpp") else cxx.replace("g++", "gcc"),
                           "-std=gnu++17" if src.endswith(".cpp") else "-std=gnu11", "-Os",
                           "-Wall", "-Wextra", "-Werror", cpu, "-mthumb", "-isystem",
                           path("lib", "include"), "-I", path("tests", "consumers", "arduino_api")]
                    if src.endswith(".cpp"):
                        cmd += ["-fno-exceptions", "-fno-rtti"]
                    cmd += flags + ["-c", src, "-o", os.path.join(tmp, "example.o")]
                    run = subprocess.run(cmd, capture_output=True, text=True)
                    if run.returncode != 0:
                        problems.append("%s does not compile (%s):\n%s" % (src, cpu, run.stderr))
    return "; ".join(problems) or None


check("library.json parses as a JSON object", lib_parses)
if lib:
    check("library.json: name, version, description (required) with the right types", lib_required)
    check("library.json: keywords, license MIT, frameworks, platforms, headers, build, examples",
          lib_types)
    check("library.json: version equals stow/version.h's", lib_version)
    check("library.json: srcDir, includeDir, headers, srcFilter and examples name existing files",
          lib_files)
    check("library.json validates against tests/consumers/schemas/library.schema.json "
          "(jsonschema), repository and authors included", lib_schema)
    check("library.json: every platform is Cortex-M or RV32 (no AVR Teensy 2.0, no Xtensa)",
          lib_platforms)
    check("library.json: platformio/select_port.py builds the Cortex-M port for Arm, the RISC-V "
          "port for RISC-V", lib_extra_script)
    check("library.json: each example is a PlatformIO project on listed platforms and compiles "
          "(Cortex-M0+, M4)", lib_examples)
else:
    results.extend([False] * 8)

# ---------------------------------------------------------------- zephyr/module.yml


def module_parses():
    global module
    need(yaml, "python3-yaml")
    module = yaml.safe_load(read("zephyr", "module.yml"))
    if not isinstance(module, dict):
        return "top level is not a mapping"
    return schema_problems(module, "zephyr_module.schema.json")


def module_keys():
    build = module.get("build")
    if not isinstance(build, dict):
        return "no build: mapping"
    problems = []
    if build.get("cmake") != "zephyr":
        problems.append("build: cmake: is %r, not zephyr" % build.get("cmake"))
    if build.get("kconfig") != "zephyr/Kconfig":
        problems.append("build: kconfig: is %r, not zephyr/Kconfig" % build.get("kconfig"))
    unknown = set(build) - {"cmake", "kconfig", "cmake-ext", "kconfig-ext", "depends", "settings",
                            "sysbuild-cmake", "sysbuild-kconfig"}
    if unknown:
        problems.append("unknown build keys %s" % sorted(unknown))
    if not os.path.isfile(path(build.get("cmake", "-"), "CMakeLists.txt")):
        problems.append("no CMakeLists.txt in %s" % build.get("cmake"))
    if not os.path.isfile(path(build.get("kconfig", "-"))):
        problems.append("%s does not exist" % build.get("kconfig"))
    return "; ".join(problems) or None


def module_samples():
    """Each directory module.yml lists under samples: holds Zephyr applications,
    each with CMakeLists.txt, prj.conf, src/ and a sample.yaml twister accepts."""
    need(yaml, "python3-yaml")
    problems = []
    found = 0
    for entry in module.get("samples") or []:
        for sample_yaml in glob.glob(path(entry, "**", "sample.yaml"), recursive=True):
            found += 1
            app = os.path.dirname(sample_yaml)
            rel = os.path.relpath(app, ROOT)
            for f in ("CMakeLists.txt", "prj.conf"):
                if not os.path.isfile(os.path.join(app, f)):
                    problems.append("%s: no %s" % (rel, f))
            if not glob.glob(os.path.join(app, "src", "*.c")):
                problems.append("%s: no src/*.c" % rel)
            if "find_package(Zephyr" not in open(os.path.join(app, "CMakeLists.txt")).read():
                problems.append("%s: CMakeLists.txt does not find_package(Zephyr)" % rel)
            spec = yaml.safe_load(open(sample_yaml, encoding="utf-8"))
            why = schema_problems(spec, "zephyr_sample.schema.json")
            if why:
                problems.append("%s/sample.yaml: %s" % (rel, why))
    if not found:
        problems.append("module.yml lists no sample directory with a sample.yaml")
    return "; ".join(problems) or None


check("zephyr/module.yml validates against tests/consumers/schemas/zephyr_module.schema.json "
      "(PyYAML, jsonschema)", module_parses)
check("zephyr/module.yml: build: cmake: zephyr, kconfig: zephyr/Kconfig, both exist", module_keys)
check("zephyr/module.yml: each sample has CMakeLists.txt, prj.conf, src/ and a sample.yaml that "
      "validates against tests/consumers/schemas/zephyr_sample.schema.json", module_samples)

# ---------------------------------------------------------------- zephyr/Kconfig


_kconfig = None


def kconfig():
    """zephyr/Kconfig as kconfiglib reads it (once); its warnings are failures."""
    global _kconfig
    if _kconfig is None:
        need(kconfiglib, "python3-kconfiglib")
        os.environ["srctree"] = ROOT
        k = kconfiglib.Kconfig(path("zephyr", "Kconfig"), warn_to_stderr=False)
        if k.warnings:
            raise RuntimeError("kconfiglib: " + "; ".join(k.warnings))
        _kconfig = k
    return _kconfig


def kconfig_symbols():
    """{symbol: {"type":..., "range": (lo, hi), "default": ...}} from zephyr/Kconfig."""
    k = kconfig()
    symbols = {}
    for sym in k.unique_defined_syms:
        info = {"type": kconfiglib.TYPE_TO_STR[sym.type]}
        if sym.ranges:
            lo, hi, _cond = sym.ranges[0]
            info["range"] = (int(lo.str_value), int(hi.str_value))
        if sym.defaults:
            info["default"] = sym.defaults[0][0].str_value
        symbols[sym.name] = info
    return symbols


def config_options():
    """The options stow/config.h reads: each #ifndef STOW_X / #define STOW_X pair at its
    top level, and STOW_CONFIG_HEADER."""
    text = read("lib", "include", "stow", "config.h")
    names = re.findall(r"^#ifndef (STOW_[A-Z0-9_]+)\n", text, re.M)
    names = [n for n in names if not n.endswith("_H") and not n.startswith("STOW__")]
    if re.search(r"^#ifdef STOW_CONFIG_HEADER", text, re.M):
        names.append("STOW_CONFIG_HEADER")
    return names


def kconfig_every_option():
    sym = kconfig_symbols()
    k = kconfig()
    problems = []
    names = config_options()
    if len(names) < 8:
        return "found only %s in config.h" % names
    for name in names:
        if name == "STOW_GENERATION_OVERFLOW":
            choices = [c for c in k.unique_choices if c.name == name]
            if not choices:
                problems.append("no choice %s" % name)
            elif {s.name for s in choices[0].syms} != {name + "_WRAP", name + "_RETIRE"}:
                problems.append("choice %s is not _WRAP and _RETIRE" % name)
        elif name not in sym:
            problems.append("config.h's %s has no CONFIG_%s" % (name, name))
    # The booleans default to config.h's default (1: y).
    for name in ("STOW_SECTIONS", "STOW_REGISTRY", "STOW_ASSERT_TEXT"):
        if name in sym and (sym[name]["type"] != "bool" or sym[name].get("default") != "y"):
            problems.append("%s is not a bool defaulting to y (config.h: 1)" % name)
    if "STOW_DEFAULT_ALIGN" in sym and sym["STOW_DEFAULT_ALIGN"].get("default") != "0":
        problems.append("STOW_DEFAULT_ALIGN's default is not 0 (config.h's own)")
    return "; ".join(problems) or None


def config_default(option):
    m = re.search(r"#ifndef %s\s*\n#define %s (\S+)" % (option, option), read("lib", "include",
                                                                            "stow", "config.h"))
    return m.group(1) if m else None


def config_range(option):
    m = re.search(r"#if %s < (\d+) \|\| %s > (\d+)" % (option, option), read("lib", "include",
                                                                          "stow", "config.h"))
    return (int(m.group(1)), int(m.group(2))) if m else None


def kconfig_options():
    sym = kconfig_symbols()
    problems = []
    for name in ("STOW", "STOW_CHECK_LEVEL", "STOW_HANDLE_INDEX_BITS",
                 "STOW_GENERATION_OVERFLOW_WRAP", "STOW_GENERATION_OVERFLOW_RETIRE",
                 "STOW_ASSERT_TEXT", "STOW_PORT_ZEPHYR"):
        if name not in sym:
            problems.append("CONFIG_%s is not defined" % name)
    for name in ("STOW_CHECK_LEVEL", "STOW_HANDLE_INDEX_BITS"):
        if name not in sym:
            continue
        if sym[name].get("type") != "int":
            problems.append("%s is not an int" % name)
        if sym[name].get("default") != config_default(name):
            problems.append("%s defaults to %s, config.h to %s" % (name, sym[name].get("default"),
                                                                   config_default(name)))
        if sym[name].get("range") != config_range(name):
            problems.append("%s's range %s is not config.h's %s" % (name, sym[name].get("range"),
                                                                   config_range(name)))
    default_gen = config_default("STOW_GENERATION_OVERFLOW")  # STOW_GEN_WRAP
    if default_gen and not re.search(r"default STOW_GENERATION_OVERFLOW_%s\b"
                                     % default_gen.replace("STOW_GEN_", ""),
                                     read("zephyr", "Kconfig")):
        problems.append("the generation overflow choice does not default to %s" % default_gen)
    return "; ".join(problems) or None


def cmake_uses_defined_symbols():
    cmake = read("zephyr", "CMakeLists.txt")
    sym = kconfig_symbols()
    used = set(re.findall(r"CONFIG_(STOW\w*)", cmake))
    problems = ["CONFIG_%s is not defined in zephyr/Kconfig" % s for s in sorted(used - set(sym))]
    # ...and every option reaches a compile definition of the stow option.
    wanted = {
        "STOW_CHECK_LEVEL": r"STOW_CHECK_LEVEL=\$\{CONFIG_STOW_CHECK_LEVEL\}",
        "STOW_HANDLE_INDEX_BITS": r"STOW_HANDLE_INDEX_BITS=\$\{CONFIG_STOW_HANDLE_INDEX_BITS\}",
        "STOW_GENERATION_OVERFLOW_RETIRE": r"CONFIG_STOW_GENERATION_OVERFLOW_RETIRE\)\s*\n\s*"
                                           r"zephyr_compile_definitions\(STOW_GENERATION_OVERFLOW"
                                           r"=STOW_GEN_RETIRE\)",
        "STOW_ASSERT_TEXT": r"STOW_ASSERT_TEXT=0",
        "STOW_MULTICORE": r"CONFIG_STOW_MULTICORE\)\s*\n\s*zephyr_compile_definitions\(STOW_MULTICORE=1\)",
        "STOW_HEAP_TRACE": r"CONFIG_STOW_HEAP_TRACE\)\s*\n\s*zephyr_compile_definitions\(STOW_HEAP_TRACE=1\)",
        "STOW_REGISTRY": r"STOW_REGISTRY=0",
        "STOW_SECTIONS": r"STOW_SECTIONS=0",
        "STOW_DEFAULT_ALIGN": r"STOW_DEFAULT_ALIGN=\$\{CONFIG_STOW_DEFAULT_ALIGN\}",
        "STOW_CONFIG_HEADER": r"STOW_CONFIG_HEADER=",
        "STOW_LINKER_SECTION": r"if\(CONFIG_STOW_LINKER_SECTION\)\s*\n(.*\n)*?\s*zephyr_linker_sources\(RAM_SECTIONS",
        "STOW_BUDGETS": r"stow_budgets\.sh\" \"\$\{STOW_BUDGETS_LIST\}",
        "STOW_PORT_ZEPHYR": r"zephyr_library_sources_ifdef\(CONFIG_STOW_PORT_ZEPHYR\s",
        "STOW": r"if\(CONFIG_STOW\)",
    }
    for name, pattern in wanted.items():
        if not re.search(pattern, cmake):
            problems.append("CONFIG_%s does not reach the build" % name)
    for fn in ("zephyr_library_named", "zephyr_library_sources", "zephyr_include_directories",
               "zephyr_compile_definitions", "zephyr_linker_sources"):
        if fn + "(" not in cmake:
            problems.append("%s is not used" % fn)
    return "; ".join(problems) or None


def cmake_files_exist():
    cmake = read("zephyr", "CMakeLists.txt")
    problems = []
    refs = re.findall(r"\$\{STOW_DIR\}/([^\s\")]+)", cmake)
    if not refs:
        return "no ${STOW_DIR}/... paths found"
    for ref in refs:
        if not glob.glob(path(ref)):
            problems.append("%s does not exist" % ref)
    return "; ".join(problems) or None


check("zephyr/Kconfig: CONFIG_STOW and the options, with config.h's ranges and defaults",
      kconfig_options)
check("zephyr/Kconfig (kconfiglib, no warnings): an entry for every option of stow/config.h",
      kconfig_every_option)
check("zephyr/CMakeLists.txt: every CONFIG_STOW* it reads is in Kconfig; each reaches the build",
      cmake_uses_defined_symbols)
check("zephyr/CMakeLists.txt: every file it names exists", cmake_files_exist)

# ---------------------------------------------------------------- port/zephyr/port.c


def zephyr_port():
    src = read("port", "zephyr", "port.c")
    for fn in ("stow_port_assert_failed", "stow_port_critical_enter", "stow_port_critical_exit",
               "stow_port_lock", "stow_port_unlock", "stow_port_write", "stow_port_exit",
               "stow_port_cycles"):
        if not re.search(r"^[^\n;]*\b%s\(" % fn, src, re.M):
            return "%s is not defined" % fn
    for api in ("irq_lock()", "irq_unlock(", "k_panic()", "printk("):
        if api not in src:
            return "does not use %s" % api
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return "no C compiler to compile it with"
    cmd = [cc, "-std=c11", "-pedantic", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
           "-Wsign-conversion", "-Wcast-align", "-Wshadow", "-Wstrict-prototypes",
           "-Wmissing-prototypes", "-Wundef", "-Werror", "-I", path("lib", "include"), "-I",
           path("tests", "consumers", "zephyr_api"), "-fsyntax-only", path("port", "zephyr",
                                                                           "port.c")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return "does not compile:\n" + run.stderr
    return None


check("port/zephyr/port.c: the six port functions, compiled against the Zephyr API's "
      "declarations", zephyr_port)

# ---------------------------------------------------------------- release files


def changelog():
    """CHANGELOG.md: releases newest first, the oldest 0.1.0, one for version.h's
    version, and every module named with its header."""
    text = read("CHANGELOG.md")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)\b", text, re.M)
    problems = []
    if not versions:
        return "no '## M.m.p' release headings"
    if versions[-1] != "0.1.0":
        problems.append("the oldest release is %s, not 0.1.0" % versions[-1])
    keys = [tuple(int(x) for x in v.split(".")) for v in versions]
    if keys != sorted(keys, reverse=True) or len(set(keys)) != len(keys):
        problems.append("releases are not newest first, once each: %s" % ", ".join(versions))
    want = version_h()
    if want is not None and want not in versions:
        problems.append("no section for version.h's %s" % want)
    for src in sorted(glob.glob(path("lib", "src", "*.c"))):
        module = os.path.basename(src)[:-2]
        # lib/src/<module>_<part>.c is part of <module> (pool_atomic.c: stow/pool.h).
        if "_" in module and not os.path.exists(path("lib", "include", "stow", module + ".h")):
            module = module.split("_")[0]
        if "`stow/%s.h`" % module not in text:
            problems.append("module %s (`stow/%s.h`) is not described" % (module, module))
    return "; ".join(problems) or None


def license_file():
    text = read("LICENSE")
    return None if text.startswith("MIT License") and "Permission is hereby granted" in text \
        else "LICENSE is not the MIT license text"


def umbrella_includes_version():
    text = read("lib", "include", "stow", "stow.h")
    return None if re.search(r'^#include "version\.h"', text, re.M) else \
        "stow/stow.h does not include version.h"


check("CHANGELOG.md: newest first, starts at 0.1.0, has version.h's release, names every module",
      changelog)
check("LICENSE: the MIT license", license_file)
check("stow/stow.h includes stow/version.h", umbrella_includes_version)

passed = sum(results)
failed = len(results) - passed
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
