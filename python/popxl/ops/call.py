"""Call sites (PopXL `popxl.ops.call`): CallSiteInfo, and the call ops themselves."""


class CallSiteInfo:
    def __init__(self, graph, parent_graph, args, outputs, label):
        self._graph = graph
        self._parent = parent_graph
        self._args = list(args)
        self._outputs = list(outputs)
        self._label = label

    @property
    def called_graph(self):
        return self._graph

    @property
    def parent_graph(self):
        return self._parent

    @property
    def inputs(self):
        return tuple(self._args)

    @property
    def outputs(self):
        return tuple(self._outputs)

    def parent_input(self, index):
        return self._args[index]

    def parent_output(self, index):
        return self._outputs[index]

    def graph_to_parent(self, graph_tensor):
        graph = self._graph
        if graph_tensor in graph._inputs:
            return self._args[graph._inputs.index(graph_tensor)]
        if graph_tensor in graph._outputs:
            return self._outputs[graph._outputs.index(graph_tensor)]
        raise ValueError(f"{graph_tensor!r} is neither an input nor an output of @{graph.name}")

    def parent_to_graph(self, parent_tensor):
        for i, a in enumerate(self._args):
            if a is parent_tensor:
                return self._graph._inputs[i]
        for i, o in enumerate(self._outputs):
            if o is parent_tensor:
                return self._graph._outputs[i]
        raise ValueError(f"{parent_tensor!r} is not an argument or result of this call")

    def set_parent_input_modified(self, parent_tensor, infer_modified_regions=False):
        """The call writes `parent_tensor` through its input: in pir that input is a
        by-reference parameter (`&`), whose in-place writes reach the caller."""
        index = next((i for i, a in enumerate(self._args) if a is parent_tensor), None)
        if index is None:
            raise ValueError(f"{parent_tensor!r} is not an argument of this call")
        if not getattr(self._graph._inputs[index], "_by_ref", False):
            raise ValueError(f"@{self._graph.name} does not write its input {self._graph._inputs[index].name} in place")


def __getattr__(attr):
    # `from popxl.ops.call import call, call_with_info`, as PopXL's module offers.
    from . import control
    return getattr(control, attr)
