#!/usr/bin/env python3
"""Checks an XDMF file against its HDF5 file (tests/e2e/hdf5.sh).

    xdmf_check.py FILE.xmf LISTING [NCELLS NNODES]

LISTING is `loom-mesh --list` of the HDF5 file.  Every DataItem must name
a dataset of that file with its Dimensions, NumberType and Precision; the
topology's element count must match its DataItem.  When ParaView's
pvpython is installed, it reads the file back (its XDMF reader), which
must find NCELLS cells, NNODES points and every attribute; otherwise that
part says it was skipped (Debian's python3-vtk9 has no XDMF reader, and
ParaView is too large to install for the tests).
"""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

PV_SCRIPT = """
from paraview.simple import XDMFReader, servermanager
r = XDMFReader(FileNames=[%r])
r.UpdatePipeline()
d = servermanager.Fetch(r)
while d.IsA('vtkMultiBlockDataSet'):
    d = d.GetBlock(0)
cells, points = d.GetNumberOfCells(), d.GetNumberOfPoints()
assert (cells, points) == (%s, %s), (cells, points)
for name in %r:
    assert d.GetCellData().GetArray(name) or d.GetPointData().GetArray(name), name
print('PV-OK %%d cells, %%d points and the fields' %% (cells, points))
"""


def fail(msg):
    print("xdmf_check: FAIL: " + msg)
    sys.exit(1)


def main():
    xmf, listing = sys.argv[1], sys.argv[2]
    sets = {}
    for line in open(listing):
        name, rows, cols, kind, size = line.split()
        sets[name] = (rows + " " + cols, kind, size)
    root = ET.parse(xmf).getroot()
    grid = root.find("Domain/Grid")
    if grid is None:
        fail("no Domain/Grid")
    items = 0
    for item in grid.iter("DataItem"):
        path = item.text.strip().split(":/", 1)[1]
        if path not in sets:
            fail("DataItem names '%s', which the HDF5 file lacks" % path)
        dims, kind, size = sets[path]
        got = (item.get("Dimensions"), item.get("NumberType"), item.get("Precision"))
        if got != (dims, kind, size):
            fail("'%s': XDMF says %s, the file holds %s" % (path, got, (dims, kind, size)))
        items += 1
    top = grid.find("Topology")
    if top.get("NumberOfElements") != top.find("DataItem").get("Dimensions").split()[0]:
        fail("topology element count differs from its DataItem")
    note = "ParaView read skipped (pvpython not installed)"
    if len(sys.argv) > 4 and shutil.which("pvpython"):
        names = [a.get("Name") for a in grid.iter("Attribute")]
        script = PV_SCRIPT % (os.path.abspath(xmf), sys.argv[3], sys.argv[4], names)
        r = subprocess.run(["pvpython", "--force-offscreen-rendering", "-c", script],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or "PV-OK" not in r.stdout:
            fail("pvpython could not read it back: " + (r.stdout + r.stderr)[-800:])
        note = "pvpython read " + r.stdout.split("PV-OK", 1)[1].strip()
    print("xdmf_check: PASS (%d DataItems match the HDF5 file; %s)" % (items, note))


main()
