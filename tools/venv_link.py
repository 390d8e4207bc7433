"""Install maniple into the running interpreter's environment as an editable
install that points at a build tree: a .pth file naming BUILD/python (where
CMake puts the package and its extension) and a dist-info, so that
`import maniple.numpy` works with no PYTHONPATH and `pip show` / `pip
uninstall maniple` know it. Run by `make build` with .venv/bin/python.

usage: python tools/venv_link.py BUILD/python
"""
import json
import pathlib
import sys
import sysconfig


def main(argv):
    if len(argv) != 2:
        sys.exit(f"usage: {argv[0]} BUILD/python")
    tree = pathlib.Path(argv[1]).resolve()
    if not (tree / "maniple" / "__init__.py").is_file():
        sys.exit(f"venv_link: {tree} holds no maniple package (build the maniple_python target first)")
    version = "0.1.0"
    root = pathlib.Path(__file__).resolve().parent.parent
    for line in (root / "pyproject.toml").read_text().splitlines():
        if line.startswith("version"):
            version = line.split("=", 1)[1].strip().strip('"')
    site = pathlib.Path(sysconfig.get_paths()["purelib"])
    pth = site / "__editable__.maniple.pth"
    info = site / f"maniple-{version}.dist-info"
    for old in site.glob("maniple-*.dist-info"):  # another version's record
        if old != info:
            for f in old.iterdir():
                f.unlink()
            old.rmdir()
    pth.write_text(f"{tree}\n")
    info.mkdir(exist_ok=True)
    files = {
        "METADATA": f"Metadata-Version: 2.1\nName: maniple\nVersion: {version}\n",
        "INSTALLER": "maniple venv_link\n",
        "direct_url.json": json.dumps({"url": root.as_uri(), "dir_info": {"editable": True}}) + "\n",
    }
    for name, text in files.items():
        (info / name).write_text(text)
    record = [f"{pth.name},,"] + [f"{info.name}/{n},," for n in (*files, "RECORD")]
    (info / "RECORD").write_text("\n".join(record) + "\n")
    print(f"venv_link: maniple {version} in {site} now imports from {tree}")


if __name__ == "__main__":
    main(sys.argv)
