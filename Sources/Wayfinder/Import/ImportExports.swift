// The types of the import API that come from the engine as they are: the import figures (`ImportStatistics`) and
// the GTFS feed limits (`GTFSLimits`), so that a caller of `MapImporter` needs no other import.
@_exported import struct Graph.ImportStatistics
@_exported import struct Transit.GTFSLimits
