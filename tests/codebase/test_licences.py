"""Every runtime dependency's licence lets Lupus PBM be distributed under
AGPL-3.0-or-later (LICENSE, pyproject.toml).

The licences are read from the installed distributions (importlib.metadata):
the SPDX ``License-Expression`` first, then the ``License`` field when it is a
licence's name, then the trove classifiers, then the licence files themselves.
A licence that none of these names, or one that is not on the list below, fails
the test: a new dependency is looked at by a person before it ships.
"""
from __future__ import annotations

import re
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PROJECT = "lupus-pbm"
OUR_LICENCE = "AGPL-3.0-or-later"

# SPDX identifiers whose code may be combined with ours and the whole conveyed
# under AGPL-3.0-or-later, and why.
ACCEPTED: dict[str, str] = {
    "MIT": "permissive; only the notice must be kept",
    "MIT-0": "permissive, MIT without even the notice to keep (cffi, under cryptography)",
    "MIT-CMU": "permissive (Pillow's HPND variant); only the notice must be kept",
    "HPND": "permissive (Historical Permission Notice and Disclaimer)",
    "BSD-2-Clause": "permissive; notice and disclaimer kept",
    "BSD-3-Clause": "permissive; notice kept, no endorsement by the authors' names",
    "ISC": "permissive, MIT-like",
    "0BSD": "permissive, no conditions",
    "Unlicense": "public-domain dedication",
    "Zlib": "permissive; altered versions marked as such",
    "PSF-2.0": "permissive (Python Software Foundation licence), GPL-compatible",
    "Apache-2.0": "permissive with a patent grant; compatible with GPL-3.0 and so with AGPL-3.0 "
                  "(not with GPL-2.0)",
    "MPL-2.0": "file-level copyleft; section 3.3 allows combining with GNU licences",
    "LGPL-2.1-or-later": "weak copyleft; a library under it may be used by a GPL/AGPL program",
    "LGPL-3.0-only": "weak copyleft; the same family as the GPL-3.0",
    "LGPL-3.0-or-later": "weak copyleft; the same family as the GPL-3.0",
    "GPL-2.0-or-later": "may be taken as GPL-3.0, which AGPL-3.0 section 13 lets be combined",
    "GPL-3.0-only": "AGPL-3.0 section 13 and GPL-3.0 section 13 let the two be combined",
    "GPL-3.0-or-later": "AGPL-3.0 section 13 and GPL-3.0 section 13 let the two be combined (html2text)",
    "AGPL-3.0-only": "the same licence, version 3",
    "AGPL-3.0-or-later": "the same licence",
}

# Names found in the free-text ``License`` field and in classifiers, as SPDX.
NAMES: dict[str, str] = {
    "mit": "MIT", "mit license": "MIT",
    "apache-2.0": "Apache-2.0", "apache 2.0": "Apache-2.0", "apache license 2.0": "Apache-2.0",
    "apache license, version 2.0": "Apache-2.0", "apache software license 2.0": "Apache-2.0",
    "bsd-2-clause": "BSD-2-Clause", "bsd-3-clause": "BSD-3-Clause", "new bsd": "BSD-3-Clause",
    "new bsd license": "BSD-3-Clause", "3-clause bsd": "BSD-3-Clause",
    "isc": "ISC", "isc license": "ISC", "psf-2.0": "PSF-2.0", "mpl-2.0": "MPL-2.0",
}
CLASSIFIERS: dict[str, str] = {
    "License :: OSI Approved :: MIT License": "MIT",
    "License :: OSI Approved :: ISC License (ISCL)": "ISC",
    "License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "License :: OSI Approved :: Python Software Foundation License": "PSF-2.0",
    "License :: OSI Approved :: GNU General Public License v3 (GPLv3)": "GPL-3.0-only",
    "License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)": "GPL-3.0-or-later",
    "License :: OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)": "LGPL-3.0-only",
    "License :: OSI Approved :: GNU Affero General Public License v3": "AGPL-3.0-only",
    "License :: OSI Approved :: GNU Affero General Public License v3 or later (AGPLv3+)": "AGPL-3.0-or-later",
}
# Classifiers that name a family, not one licence: the licence file decides.
FAMILIES = {
    "License :: OSI Approved :: BSD License": "bsd",
    "License :: OSI Approved :: Apache Software License": "apache",
}

# What a licence file says, recognised by its operative sentences.
BSD_3 = ("redistributions of source code must retain", "redistributions in binary form must reproduce",
         "endorse or promote products derived")
BSD_2 = BSD_3[:2]
BSD_ADVERTISING = "all advertising materials"  # BSD-4-Clause: incompatible with the GPL family
MIT_GRANT = "permission is hereby granted, free of charge"
APACHE_2 = "apache license\nversion 2.0"


def from_text(text: str) -> str | None:
    """The SPDX id of a licence file's text, for the licences seen in practice."""
    flat = " ".join(text.lower().split())
    if BSD_ADVERTISING in flat:
        return "BSD-4-Clause"
    if all(clause in flat for clause in BSD_3):
        return "BSD-3-Clause"
    if all(clause in flat for clause in BSD_2):
        return "BSD-2-Clause"
    if MIT_GRANT in flat:
        return "MIT"
    if "apache license" in flat and "version 2.0" in flat:
        return "Apache-2.0"
    return None


def expression_accepted(expression: str) -> bool:
    """An SPDX expression: ``A OR B`` needs one accepted side, ``A AND B`` both;
    ``X WITH exception`` is taken as X (exceptions only add permissions)."""
    text = re.sub(r"\s+WITH\s+[\w.+-]+", "", expression.strip())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return any(all(part.strip(" ()") in ACCEPTED for part in alternative.split(" AND "))
               for alternative in text.split(" OR "))


def licence_texts(dist: metadata.Distribution) -> list[str]:
    texts = []
    for file in dist.files or []:
        name = file.name.upper()
        if any(name.startswith(stem) for stem in ("LICENSE", "LICENCE", "COPYING")):
            try:
                texts.append(file.locate().read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    field = dist.metadata.get("License") or ""
    if "\n" in field.strip():  # the whole licence pasted into the field
        texts.append(field)
    return texts


def licence_of(dist: metadata.Distribution) -> tuple[str | None, str]:
    """(SPDX expression or id, where it was read); None when nothing names it."""
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip(), "License-Expression"
    field = (meta.get("License") or "").strip()
    if field and field.lower() in NAMES:
        return NAMES[field.lower()], "License"
    if field in ACCEPTED:
        return field, "License"
    classifiers = [c for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    for classifier in classifiers:
        if classifier in CLASSIFIERS:
            return CLASSIFIERS[classifier], f"classifier {classifier!r}"
    from_files = [spdx for spdx in map(from_text, licence_texts(dist)) if spdx]
    for classifier in classifiers:
        family = FAMILIES.get(classifier)
        if family == "bsd":
            # "BSD License" covers the 4-clause licence too: the file must say which.
            bsd = [spdx for spdx in from_files if spdx.startswith("BSD")]
            if bsd:
                return bsd[0], f"classifier {classifier!r} and the licence file"
            return None, f"classifier {classifier!r} without a licence file saying which BSD"
        if family == "apache" and "Apache-2.0" in from_files:
            return "Apache-2.0", f"classifier {classifier!r} and the licence file"
    if from_files:
        return from_files[0], "licence file"
    return None, "no licence in the metadata or the licence files"


def runtime_distributions() -> dict[str, metadata.Distribution]:
    """The project's runtime dependencies, transitively, without any extra."""
    found: dict[str, metadata.Distribution] = {}
    todo = [PROJECT]
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        dist = metadata.distribution(name)
        found[name] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    found.pop(canonicalize_name(PROJECT))
    return found


def test_the_project_declares_its_licence_and_ships_it():
    dist = metadata.distribution(PROJECT)
    assert dist.metadata.get("License-Expression") == OUR_LICENCE
    assert "LICENSE" in (dist.metadata.get_all("License-File") or [])


def test_every_runtime_dependency_has_a_licence_compatible_with_ours():
    distributions = runtime_distributions()
    assert {"flask", "html2text", "sqlalchemy", "pillow"} <= set(distributions)  # the walk found them
    problems = []
    for name, dist in sorted(distributions.items()):
        spdx, where = licence_of(dist)
        if spdx is None:
            problems.append(f"{name} {dist.version}: licence not found ({where})")
        elif not expression_accepted(spdx):
            problems.append(f"{name} {dist.version}: {spdx} (from {where}) is not on the list of "
                            f"licences compatible with {OUR_LICENCE}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("expression, accepted", [
    ("MIT", True), ("Apache-2.0 OR BSD-3-Clause", True), ("GPL-3.0-or-later", True),
    ("GPL-2.0-only", False),            # GPL-2.0 alone cannot be combined with (A)GPL-3.0
    ("Apache-2.0 AND GPL-2.0-only", False), ("GPL-2.0-only OR MIT", True),
    ("SSPL-1.0", False), ("BUSL-1.1", False), ("LicenseRef-Proprietary", False),
    ("GPL-2.0-or-later WITH Classpath-exception-2.0", True),
])
def test_expressions(expression, accepted):
    assert expression_accepted(expression) is accepted


def test_licence_files_are_told_apart():
    bsd3 = ("Redistributions of source code must retain the above notice. Redistributions in binary "
            "form must reproduce the above notice. Neither the name of X may be used to endorse or "
            "promote products derived from this software.")
    assert from_text(bsd3) == "BSD-3-Clause"
    assert from_text(bsd3 + " All advertising materials mentioning features of this software must "
                     "display the following acknowledgement.") == "BSD-4-Clause"
    assert not expression_accepted("BSD-4-Clause")
    assert from_text("Permission is hereby granted, free of charge, to any person") == "MIT"
    assert from_text("All rights reserved. You may not copy this software.") is None
