/**
 * Every edge `from -> to` of a graph (nodes 0..count-1, `edgesOf` each node's targets) whose
 * target is on the current path of an iterative depth-first walk (a back edge), with the cycle it
 * closes (the path from `to` to `from`). Dropping them all leaves a graph without cycles; the walk
 * is linear in nodes and edges, and deep chains do not grow the call stack.
 */
export function findBackEdges(
  count: number,
  edgesOf: (node: number) => number[],
): [from: number, to: number, cycle: number[]][] {
  const state = new Uint8Array(count); // 0 unseen, 1 on the path, 2 done
  const out: [number, number, number[]][] = [];
  const path: number[] = [];
  const position = new Map<number, number>();
  for (let start = 0; start < count; start++) {
    if (state[start]) continue;
    const stack: { node: number; edges: number[]; next: number }[] = [{ node: start, edges: edgesOf(start), next: 0 }];
    state[start] = 1;
    position.set(start, path.push(start) - 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.next === top.edges.length) {
        state[top.node] = 2;
        position.delete(path.pop()!);
        stack.pop();
        continue;
      }
      const to = top.edges[top.next++]!;
      if (state[to] === 1) out.push([top.node, to, path.slice(position.get(to))]);
      if (state[to]) continue;
      state[to] = 1;
      position.set(to, path.push(to) - 1);
      stack.push({ node: to, edges: edgesOf(to), next: 0 });
    }
  }
  return out;
}
