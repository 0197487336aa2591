import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findBackEdges } from '../../lib/core/graph.js';

const graph = suite('core.findBackEdges');

const walk = (edges: number[][]) => findBackEdges(edges.length, (node) => edges[node] ?? []);

graph('finds a self-loop, a two-node cycle and a longer one, each with the cycle it closes', () => {
  assert.equal(walk([[0]]), [[0, 0, [0]]]);
  assert.equal(walk([[1], [0]]), [[1, 0, [0, 1]]]);
  assert.equal(walk([[1], [2], [3], [1]]), [[3, 1, [1, 2, 3]]]);
});

graph('finds nothing in a graph without cycles, shared targets included', () => {
  assert.equal(walk([[1, 2], [2], [], [0, 2]]), []);
});

graph('walks a chain of 200,000 nodes without growing the call stack, and finds the link that closes it', () => {
  const size = 200_000;
  const edges = Array.from({ length: size }, (_, i) => [(i + 1) % size]);
  const found = walk(edges);
  assert.is(found.length, 1);
  assert.equal([found[0]![0], found[0]![1], found[0]![2].length], [size - 1, 0, size]);
});

graph.run();
