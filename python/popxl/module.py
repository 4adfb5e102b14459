"""popxl.Module: a class whose `build` method create_graph traces."""


class Module:
    def build(self, *args, **kwargs):
        raise NotImplementedError("a popxl.Module defines build(...)")

    def __call__(self, *args, **kwargs):
        return self.build(*args, **kwargs)

    def create_graph(self, *args, **kwargs):
        from .context import gcg
        return gcg().ir.create_graph(self, *args, **kwargs)
