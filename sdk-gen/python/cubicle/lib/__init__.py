"""The hand-written half of the SDK: transport, retries, errors, streaming, pagination and the
resource classes behind :class:`cubicle.Cubicle`. The generated half is ``cubicle._generated``."""
