"""Print the configuration of the PDF build: ``_config.yml`` with notebook execution off.

The PDF typesets the outputs stored in the chapters, as they are: ``make test`` (nbval) checks
that they are those of a fresh run, so executing the chapters again would only cost minutes.
Jupyter Book resolves ``sphinx.local_extensions`` against the directory of the configuration
file; the printed configuration lives in ``_build/``, so those paths become absolute.

Usage: ``python latex/pdf_config.py > _build/pdf_config.yml`` from the repository root.
"""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    extensions = config.get("sphinx", {}).get("local_extensions") or {}
    for name, path in extensions.items():
        extensions[name] = str((ROOT / path).resolve())
    print(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), end="")


if __name__ == "__main__":
    main()
