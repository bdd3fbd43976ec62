/** `{path, method}` of every route in Fastify's printed route tree, with `:param` written as `{param}`. */
export function servedRoutes(tree: string): { path: string; method: string }[] {
  const routes: { path: string; method: string }[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    const path = (stack.length > 0 ? stack[stack.length - 1].path : '') + match[2];
    stack.push({ depth, path });
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) {
      routes.push({ path: path.replace(/:([A-Za-z]+)/g, '{$1}'), method: method.toLowerCase() });
    }
  }
  return routes;
}
