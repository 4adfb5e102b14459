"""Host and remote IO (language.md §8)."""
from .. import context


def host_load(h2d_stream, name=None):
    """The next slot of an h2d stream (PopXL `ops.host_load`)."""
    return context.gcg().ir._op("host_load", [h2d_stream], name=name)[0]


def host_store(d2h_stream, t):
    """Writes `t` to the next slot of a d2h stream (PopXL `ops.host_store`)."""
    context.gcg().ir._op("host_store", [d2h_stream, t])


def remote_load(remote_buffer, offset, name=None):
    return context.gcg().ir._op("remote_load", [remote_buffer, offset], name=name)[0]


def remote_load_(remote_buffer, offset, t):
    context.gcg().ir._op("remote_load_", [remote_buffer, offset, t], inplace=t)
    return t


def remote_store(remote_buffer, offset, t):
    context.gcg().ir._op("remote_store", [remote_buffer, offset, t])
