@_exported import Routing
