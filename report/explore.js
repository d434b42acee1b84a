(function (meta) {
  "use strict";
  // The neighbourhood view of a graph too large to draw whole (report/explore.go):
  // the page embeds the whole graph (each edge once, as varint gaps) and every
  // dataset's figures (gzip), base64url-encoded in two inert <template>s; this
  // unpacks them once the page has loaded, then draws the neighbourhood of the
  // dataset searched for: its binding path and every dataset within k hops,
  // nearest first, laid out here by stress majorization. Ids are written only as
  // text.
  var svg = document.getElementById("graph"), msg = document.getElementById("msg"), q = document.getElementById("q");
  var kIn = document.getElementById("k"), go = document.getElementById("go"), drawnLine = document.getElementById("drawn");
  var hover = document.getElementById("hover"), hl = document.getElementById("hl"), halo = document.getElementById("halo");
  var edgesEl = document.getElementById("edges"), boundaryEl = document.getElementById("boundary");
  var nodesEl = document.getElementById("nodes"), labelsEl = document.getElementById("labels"), ns = svg.namespaceURI;
  var n = meta.n, W = svg.viewBox.baseVal.width, H = svg.viewBox.baseVal.height, R = 6;
  var timing = { unpacked: -1, firstDrawn: -1, started: -1 };

  // Numbers as the rest of the page writes them.
  function thousands(x) {
    var s = String(x), out = "", i = s.length;
    while (i > 3) { out = "," + s.slice(i - 3, i) + out; i -= 3; }
    return s.slice(0, i) + out;
  }
  function hopWord(d) { return d === 1 ? "1 hop" : thousands(d) + " hops"; }
  function ramp(t) {
    var st = meta.stops, x, i, f, c = "#";
    t = Math.min(Math.max(t, 0), 1);
    x = t * (st.length - 1);
    i = Math.min(Math.floor(x), st.length - 2);
    f = x - i;
    for (var k = 0; k < 3; k++) {
      var v = Math.round(st[i][k] + f * (st[i + 1][k] - st[i][k]));
      c += (v < 16 ? "0" : "") + v.toString(16);
    }
    return c;
  }

  // base64url (no padding) to bytes: the browser's own decoder where it has one.
  function fromBase64(s) {
    if (typeof Uint8Array.fromBase64 === "function") {
      return Uint8Array.fromBase64(s, { alphabet: "base64url" });
    }
    var abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", t = new Uint8Array(128), i;
    for (i = 0; i < 64; i++) { t[abc.charCodeAt(i)] = i; }
    var len = s.length, out = new Uint8Array(Math.floor(len * 3 / 4)), o = 0, x;
    for (i = 0; i + 4 <= len; i += 4) {
      x = t[s.charCodeAt(i)] << 18 | t[s.charCodeAt(i + 1)] << 12 | t[s.charCodeAt(i + 2)] << 6 | t[s.charCodeAt(i + 3)];
      out[o++] = x >> 16; out[o++] = x >> 8 & 255; out[o++] = x & 255;
    }
    if (len - i >= 2) {
      x = t[s.charCodeAt(i)] << 18 | t[s.charCodeAt(i + 1)] << 12 | (len - i === 3 ? t[s.charCodeAt(i + 2)] << 6 : 0);
      out[o++] = x >> 16;
      if (len - i === 3) { out[o++] = x >> 8 & 255; }
    }
    return out;
  }

  // The unpacked data.
  var ids = "", starts = null, lowIds = null, lowStarts = null; // "\nid\nid\n…\n"; starts[i]: where id i begins
  var off = null, adj = null; // both directions, each list ascending (graph doc.go, invariant 1)
  var flags = null, level = null, levels = null, pts = null, dist = null, bind = null;
  var seen = null, queue = null, parent = null, local = null; // scratch, one slot a dataset

  function sectionOf(buf, s) {
    switch (s.kind) {
      case "u8": case "varint": return new Uint8Array(buf, s.offset, s.length);
      case "u16": return new Uint16Array(buf, s.offset, s.length / 2);
      case "u32": return new Uint32Array(buf, s.offset, s.length / 4);
      case "f64": return new Float64Array(buf, s.offset, s.length / 8);
      case "utf8": return new TextDecoder().decode(new Uint8Array(buf, s.offset, s.length));
    }
    throw new Error("unknown section kind " + s.kind);
  }

  // newlines lists where each id of a "\n"-separated list begins.
  function newlines(s) {
    var at = new Int32Array(n + 1), i = 0, p = 0;
    while (i <= n) {
      p = s.indexOf("\n", p);
      if (p < 0) { break; }
      at[i++] = ++p;
    }
    if (i !== n + 1) { throw new Error("the id list holds " + (i - 1) + " ids, not " + n); }
    return at;
  }

  // csr rebuilds both directions from the gaps of each vertex's neighbours above
  // it. Each list holds v's neighbours below v, then those above it, ascending:
  // the lists are placed from the counts below and above each vertex. The
  // neighbours above go straight to their place (in order of v, so sequentially);
  // the neighbours below, each a write to a distant list, are first gathered by
  // blocks of 2^14 vertices (in order of v, so ascending within each list), then
  // written block by block, each block's lists then few enough to stay in cache.
  function csr(gaps, below, above) {
    var o = new Int32Array(n + 1), v, j, u, c, s, by, p = 0, shift = 14, nb = (n >> shift) + 1;
    for (v = 0; v < n; v++) { o[v + 1] = o[v] + below[v] + above[v]; }
    var a = new Int32Array(o[n]), bstart = new Int32Array(nb + 1);
    for (v = 0; v < n; v++) { bstart[(v >> shift) + 1] += below[v]; }
    for (j = 0; j < nb; j++) { bstart[j + 1] += bstart[j]; }
    var bfill = bstart.slice(0, nb), lowU = new Uint16Array(meta.m), lowV = new Int32Array(meta.m), mask = (1 << shift) - 1;
    for (v = 0; v < n; v++) {
      var at = o[v] + below[v];
      u = v;
      for (j = above[v]; j > 0; j--) {
        c = 0; s = 0;
        do { by = gaps[p++]; c |= (by & 127) << s; s += 7; } while (by > 127);
        u += c;
        a[at++] = u;
        var k = bfill[u >> shift]++;
        lowU[k] = u & mask;
        lowV[k] = v;
      }
    }
    if (p !== gaps.length) { throw new Error("the edge list has " + (gaps.length - p) + " bytes left over"); }
    var fill = new Int32Array(1 << shift);
    for (var b = 0; b < nb; b++) {
      var base = b << shift, end = Math.min(n, base + (1 << shift));
      for (v = base; v < end; v++) { fill[v - base] = o[v]; }
      for (j = bstart[b]; j < bstart[b + 1]; j++) { a[fill[lowU[j]]++] = lowV[j]; }
    }
    off = o;
    adj = a;
  }

  // bindings decodes explore.go's bindingCodes: 0 none, 1 the dataset itself,
  // 2 + i its i-th neighbour, else 2 + its degree + the binding dataset; here b + 1
  // (0 for none).
  function bindings(codes) {
    var b = new Int32Array(n), p = 0, v, c, s, by, deg;
    for (v = 0; v < n; v++) {
      c = 0; s = 0;
      do { by = codes[p++]; c += (by & 127) * Math.pow(2, s); s += 7; } while (by > 127);
      deg = off[v + 1] - off[v];
      b[v] = c === 0 ? 0 : c === 1 ? v + 1 : c - 2 < deg ? adj[off[v] + c - 2] + 1 : c - 2 - deg + 1;
    }
    return b;
  }

  // text reads a <template>'s text and removes it from the page.
  function text(id) {
    var t = document.getElementById(id), s = t.content.textContent;
    t.remove();
    return s;
  }

  function unpack() {
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
      return Promise.reject(new Error("this machine is big-endian; the page's data are little-endian"));
    }
    if (typeof DecompressionStream !== "function") {
      return Promise.reject(new Error("this browser has no DecompressionStream to unpack the graph"));
    }
    var t0 = performance.now(), zipped = fromBase64(text("graphdp-packed"));
    var stream = new Blob([zipped]).stream().pipeThrough(new DecompressionStream("gzip"));
    var unzipped = new Response(stream).arrayBuffer();
    // While the browser unzips. A copy: V8 reads a copied array several times faster
    // than the one fromBase64 returns (Chromium 156).
    var gaps = fromBase64(text("graphdp-gaps")).slice();
    timing.base64 = performance.now() - t0;
    if (gaps.length !== meta.gapBytes) { return Promise.reject(new Error("the edge list has " + gaps.length + " bytes, not " + meta.gapBytes)); }
    return unzipped.then(function (buf) {
      var t1 = performance.now(), sec = {};
      timing.gunzip = t1 - t0 - timing.base64;
      meta.sections.forEach(function (s) { sec[s.name] = sectionOf(buf, s); });
      ids = sec.ids;
      starts = newlines(ids);
      var t2 = performance.now();
      timing.ids = t2 - t1;
      csr(gaps, sec.below, sec.above);
      timing.csr = performance.now() - t2;
      if (off[n] !== 2 * meta.m) { throw new Error("the graph has " + off[n] / 2 + " edges, not " + meta.m); }
      flags = sec.flags;
      level = sec.level || null;
      levels = sec.levels || null;
      pts = sec.pt || null;
      dist = sec.dist || null;
      bind = sec.bind ? bindings(sec.bind) : null;
      seen = new Int32Array(n).fill(-1);
      local = new Int32Array(n).fill(-1);
      queue = new Int32Array(n);
      parent = new Int32Array(n);
    });
  }

  function idOf(v) { return ids.substring(starts[v], starts[v + 1] - 1); }
  function ptOf(v) { return pts ? pts[v] : levels[level[v]]; }
  function degree(v) { return off[v + 1] - off[v]; }
  function bindOf(v) { return bind ? bind[v] - 1 : -1; }

  // indexAt is the id holding character p of a list whose ids begin at at.
  function indexAt(at, p) {
    var lo = 0, hi = n - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (at[mid] <= p) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }

  // lookup finds the dataset named s: the exact id, else the one id equal to it
  // ignoring case, else the one id containing it ignoring case (as on a page that
  // draws the whole graph). It returns the position, or the matches (up to 1,001)
  // when there are several, or [] when none.
  function lookup(s) {
    if (s === "" || s.indexOf("\n") >= 0) { return []; }
    var p = ids.indexOf("\n" + s + "\n");
    if (p >= 0) { return indexAt(starts, p + 1); }
    if (lowIds === null) {
      lowIds = ids.toLowerCase();
      lowStarts = newlines(lowIds);
    }
    var low = s.toLowerCase(), same = [], part = [], from = 0;
    while (same.length <= 1000 && (p = lowIds.indexOf("\n" + low + "\n", from)) >= 0) {
      same.push(indexAt(lowStarts, p + 1));
      from = p + 1;
    }
    if (same.length === 1) { return same[0]; }
    if (same.length > 1) { return same; }
    from = 0;
    while (part.length <= 1000 && (p = lowIds.indexOf(low, from)) >= 0) {
      var i = indexAt(lowStarts, p);
      part.push(i);
      from = lowStarts[i + 1]; // the next id
    }
    return part.length === 1 ? part[0] : part;
  }

  // bfs explores from src to at most depth hops, or until stop is found: queue
  // holds the datasets reached in breadth-first order (each list ascending), seen
  // their hops, parent the dataset each was reached from. Its caller clears seen.
  function bfs(src, depth, stop) {
    var len = 1, h = 0;
    queue[0] = src;
    seen[src] = 0;
    parent[src] = -1;
    while (h < len) {
      var x = queue[h++], d = seen[x];
      if (d >= depth) { break; }
      for (var e = off[x], end = off[x + 1]; e < end; e++) {
        var u = adj[e];
        if (seen[u] < 0) {
          seen[u] = d + 1;
          parent[u] = x;
          queue[len++] = u;
          if (u === stop) { return len; }
        }
      }
    }
    return len;
  }
  function clear(len) { for (var i = 0; i < len; i++) { seen[queue[i]] = -1; } }

  // pathOf is v's binding path as the whole-graph drawing has it (graph.go,
  // bindingPath): a shortest path v … b to its binding dataset b, each hop to the
  // lowest-position neighbour one hop closer to b. A search from b that stops on
  // reaching v has labelled every dataset closer to b than v is, which is all the
  // walk from v looks at. null when nothing binds v or b is not connected to it.
  function pathOf(v) {
    var b = bindOf(v);
    if (b < 0) { return null; }
    if (b === v) { return [v]; }
    var len = bfs(b, n, v), path = null;
    if (seen[v] >= 0) {
      path = [v];
      for (var x = v; x !== b;) {
        var want = seen[x] - 1;
        var e = off[x], end = off[x + 1];
        while (e < end && seen[adj[e]] !== want) { e++; } // the first (lowest) neighbour one hop closer
        if (e === end) { throw new Error("no neighbour of " + idOf(x) + " is closer to " + idOf(b)); }
        x = adj[e];
        path.push(x);
      }
    }
    clear(len);
    return path;
  }

  // The neighbourhood drawn: its datasets (positions; centre first), edges (pairs
  // of indices into nodes) and what was left out.
  var cur = null;

  function neighbourhood(c, k) {
    var cap = meta.maxNodes, nodes = [], path = pathOf(c), pathCut = 0;
    function add(x) {
      if (local[x] < 0) {
        local[x] = nodes.length;
        nodes.push(x);
      }
    }
    add(c);
    if (path) {
      if (path.length > cap / 2) { // keep room for the hops around c
        pathCut = path.length - cap / 2;
        path = path.slice(0, cap / 2);
      }
      path.forEach(add);
    }
    var len = bfs(c, k, -1), inBall = [];
    for (var i = 0; i < len && nodes.length < cap; i++) { add(queue[i]); }
    // The search tree's edge to each dataset drawn that it reached (its parent was
    // reached before it, so is drawn too).
    nodes.forEach(function (x) { inBall.push(seen[x] >= 0 ? parent[x] : -2); });
    clear(len);
    var ballDrawn = inBall.filter(function (p) { return p !== -2; }).length;
    // Edges among the datasets drawn: first the path's and the search tree's, so
    // the drawing stays connected, then the others in order, up to maxEdges.
    var must = [], rest = [], total = 0;
    var key = function (a, b) { return a < b ? a * cap + b : b * cap + a; }, chosen = {};
    function take(list, a, b) {
      var kk = key(a, b);
      if (!chosen[kk]) { chosen[kk] = true; list.push(a < b ? [a, b] : [b, a]); }
    }
    if (path) { for (i = 1; i < path.length; i++) { take(must, local[path[i - 1]], local[path[i]]); } }
    inBall.forEach(function (p, j) { if (p >= 0) { take(must, j, local[p]); } });
    nodes.forEach(function (x, j) {
      for (var e = off[x], end = off[x + 1]; e < end; e++) {
        var u = local[adj[e]];
        if (u > j) {
          total++;
          if (must.length + rest.length < meta.maxEdges) { take(rest, j, u); }
        }
      }
    });
    nodes.forEach(function (x) { local[x] = -1; });
    return { centre: c, k: k, nodes: nodes, edges: must.concat(rest), totalEdges: total, path: path, pathCut: pathCut,
      within: len, ballDrawn: ballDrawn, bound: bindOf(c) };
  }

  // layout places the nodes by stress majorization (Gansner, Koren and North,
  // 2004), as graph.go lays out a whole graph: points whose distances match the hop
  // distances of the drawing's own edges, weighted 1/d². The start is fixed (rings
  // by hops from the centre), so a neighbourhood is always drawn the same way.
  function layout(nb) {
    var k = nb.nodes.length, nbr = [], i, j;
    for (i = 0; i < k; i++) { nbr.push([]); }
    nb.edges.forEach(function (e) { nbr[e[0]].push(e[1]); nbr[e[1]].push(e[0]); });
    var D = new Int32Array(k * k).fill(-1), qq = new Int32Array(k);
    for (i = 0; i < k; i++) {
      var row = i * k, len = 1, h = 0;
      qq[0] = i;
      D[row + i] = 0;
      while (h < len) {
        var x = qq[h++];
        for (j = 0; j < nbr[x].length; j++) {
          var u = nbr[x][j];
          if (D[row + u] < 0) { D[row + u] = D[row + x] + 1; qq[len++] = u; }
        }
      }
    }
    var X = new Float64Array(k), Y = new Float64Array(k), ring = {}, count = {};
    for (i = 0; i < k; i++) { var d0 = D[i]; count[d0] = (count[d0] || 0) + 1; }
    for (i = 0; i < k; i++) {
      var d = D[i], at = ring[d] = (ring[d] || 0) + 1, a = 2 * Math.PI * at / count[d] + 0.7 * d;
      X[i] = d * Math.cos(a);
      Y[i] = d * Math.sin(a);
    }
    // At most 300 sweeps, and about 2·10⁷ pair updates in all (125 sweeps of 400).
    var sweeps = Math.min(300, Math.max(30, Math.floor(2e7 / (k * k))));
    for (var it = 0; it < sweeps && k > 2; it++) {
      var moved = 0;
      for (i = 0; i < k; i++) {
        var sx = 0, sy = 0, sw = 0, xi = X[i], yi = Y[i];
        for (j = 0; j < k; j++) {
          if (j === i) { continue; }
          var dij = D[i * k + j];
          if (dij < 0) { dij = k; }
          var w = 1 / (dij * dij), dx = xi - X[j], dy = yi - Y[j], norm = Math.sqrt(dx * dx + dy * dy), tx = X[j], ty = Y[j];
          if (norm > 0) { tx += dij * dx / norm; ty += dij * dy / norm; }
          sx += w * tx;
          sy += w * ty;
          sw += w;
        }
        var nx = sx / sw, ny = sy / sw;
        moved = Math.max(moved, Math.abs(nx - xi) + Math.abs(ny - yi));
        X[i] = nx;
        Y[i] = ny;
      }
      if (moved < 1e-3) { break; }
    }
    // Fit the box, an edge at most 70 px long.
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (i = 0; i < k; i++) { x0 = Math.min(x0, X[i]); x1 = Math.max(x1, X[i]); y0 = Math.min(y0, Y[i]); y1 = Math.max(y1, Y[i]); }
    var pad = 28, s = Math.min(70, (W - 2 * pad) / Math.max(x1 - x0, 1e-9), (H - 2 * pad) / Math.max(y1 - y0, 1e-9));
    var ox = W / 2 - s * (x0 + x1) / 2, oy = H / 2 - s * (y0 + y1) / 2, xy = [];
    for (i = 0; i < k; i++) { xy.push([+(ox + s * X[i]).toFixed(1), +(oy + s * Y[i]).toFixed(1)]); }
    return xy;
  }

  // Marks as the whole-graph drawing has them (graph.go, shape): a circle for
  // answer 0, a square of the same area for answer 1.
  function shape(one) {
    if (one) {
      var h = Math.round(R * Math.sqrt(Math.PI) / 2 * 10) / 10;
      return "M" + -h + " " + -h + "h" + 2 * h + "v" + 2 * h + "h" + -2 * h + "Z";
    }
    return "M" + -R + " 0a" + R + " " + R + " 0 1 0 " + 2 * R + " 0a" + R + " " + R + " 0 1 0 " + -2 * R + " 0Z";
  }

  function info(v) {
    var s = [idOf(v), "answer " + (flags[v] & 1), "p_true " + ptOf(v).toFixed(6)];
    if (flags[v] & 2) { s.push("in the hitting set"); }
    if (flags[v] & 4) { s.push("deterministic: p_one 0 or 1"); }
    if (bind) {
      var b = bindOf(v);
      if (b < 0) {
        s.push("no binding dataset");
      } else if (dist && dist[v] > 0) {
        s.push("bound by " + idOf(b) + ", " + hopWord(dist[v] - 1));
      } else {
        s.push("bound by " + idOf(b));
      }
    }
    s.push(degree(v) === 1 ? "1 neighbour" : thousands(degree(v)) + " neighbours");
    return s.join(" \u00b7 ");
  }

  var xy = [], view = { x: 0, y: 0, w: W }, labelZoom = 1, marks = [], labelEls = [];

  function el(name, attrs) {
    var e = document.createElementNS(ns, name);
    for (var a in attrs) { e.setAttribute(a, attrs[a]); }
    return e;
  }

  function render(nb, isStart) {
    cur = nb;
    xy = layout(nb);
    var d = [], db = [], k = nb.nodes.length;
    nb.edges.forEach(function (e) {
      var a = xy[e[0]], b = xy[e[1]], seg = "M" + a[0] + " " + a[1] + "L" + b[0] + " " + b[1];
      ((flags[nb.nodes[e[0]]] & 1) !== (flags[nb.nodes[e[1]]] & 1) ? db : d).push(seg);
    });
    edgesEl.setAttribute("d", d.join(""));
    boundaryEl.setAttribute("d", db.join(""));
    nodesEl.textContent = "";
    labelsEl.textContent = "";
    marks = [];
    labelEls = [];
    var onPath = {};
    if (nb.path) { nb.path.forEach(function (x) { onPath[x] = true; }); }
    var longest = 0;
    nb.nodes.forEach(function (x, i) {
      var f = flags[x], g = el("g", { transform: "translate(" + xy[i][0] + " " + xy[i][1] + ")" });
      var t = (ptOf(x) - meta.lo) / (meta.hi - meta.lo);
      var m = el("path", { "class": "node a" + (f & 1) + (f & 2 ? " hit" : "") + (f & 4 ? " det" : "") + (i === 0 || onPath[x] ? " on" : ""),
        d: shape(f & 1), fill: ramp(t), "data-i": i });
      var title = el("title", {});
      title.textContent = info(x);
      m.appendChild(title);
      g.appendChild(m);
      nodesEl.appendChild(g);
      marks.push(m);
      var lg = el("g", { transform: "translate(" + xy[i][0] + " " + xy[i][1] + ")" }), lt = el("text", {}), id = idOf(x);
      if (id.length > meta.labelRunes) { id = id.slice(0, meta.labelRunes - 1) + "\u2026"; }
      longest = Math.max(longest, id.length);
      lt.textContent = id;
      if (i === 0 || onPath[x]) { lg.setAttribute("class", "on"); }
      lg.appendChild(lt);
      labelsEl.appendChild(lg);
      labelEls.push(lg);
    });
    hl.setAttribute("points", nb.path && nb.path.length > 1 ? nb.path.map(function (x) { return xy[localIndex(x)].join(","); }).join(" ") : "");
    halo.setAttribute("cx", xy[0][0]);
    halo.setAttribute("cy", xy[0][1]);
    // Ids are written beside every mark from the zoom where the median distance
    // between nearest marks leaves room for them (graph.go, labelGap).
    var near = [];
    for (var i = 0; i < k; i++) {
      var best = Infinity;
      for (var j = 0; j < k; j++) {
        if (j !== i) { best = Math.min(best, Math.pow(xy[i][0] - xy[j][0], 2) + Math.pow(xy[i][1] - xy[j][1], 2)); }
      }
      near.push(Math.sqrt(best));
    }
    near.sort(function (a, b) { return a - b; });
    var gap = Math.max(34, 6.5 * longest + 6);
    labelZoom = k < 2 ? 1 : Math.min(meta.maxZoom, Math.max(1, gap / Math.max(near[k >> 1], 1e-9)));
    svg.classList.add("lit");
    view = { x: 0, y: 0, w: W };
    apply();
    hover.textContent = info(nb.centre);
    drawnLine.textContent = describe(nb, isStart);
    if (timing.firstDrawn < 0) { timing.firstDrawn = performance.now(); }
  }

  function localIndex(x) { return cur.nodes.indexOf(x); }

  // describe says what is drawn: "Drawn: 3, its binding path to 21 (2 hops), and
  // the 23 datasets within 1 hop of it; 24 edges among them."
  function describe(nb, isStart) {
    var c = nb.centre, parts = [idOf(c) + (isStart ? ", the least accurate dataset" : "")];
    if (bind) {
      if (nb.bound < 0) {
        parts.push("bound by no hitting-set dataset");
      } else if (!nb.path) {
        parts.push("bound by " + idOf(nb.bound) + ", which is not connected to it in this graph");
      } else if (nb.bound === c) {
        parts.push("in the hitting set (it binds itself)");
      } else {
        parts.push("its binding path to " + idOf(nb.bound) + " (" + hopWord(nb.path.length - 1 + nb.pathCut) +
          (nb.pathCut ? "; its first " + thousands(nb.path.length) + " datasets drawn" : "") + ")");
      }
    }
    var s = "Drawn: " + parts.join(", "), around = nb.within - 1;
    if (nb.k > 0) {
      s += (parts.length > 1 ? ", and " : " and ") + "the " + (around === 1 ? "1 dataset" : thousands(around) + " datasets") + " within " + hopWord(nb.k) + " of it";
      if (nb.ballDrawn < nb.within) {
        s += " (the nearest " + thousands(nb.ballDrawn - 1) + " drawn: at most " + thousands(meta.maxNodes) + " datasets in all)";
      }
    }
    s += "; " + thousands(nb.edges.length) + (nb.edges.length === 1 ? " edge" : " edges") + " among them";
    if (nb.edges.length < nb.totalEdges) { s += " of " + thousands(nb.totalEdges) + " (at most " + thousands(meta.maxEdges) + " drawn)"; }
    return s + ".";
  }

  // Zoom and pan, as on the whole-graph drawing (graph.js): marks grow as zoom^0.25.
  function zoom() { return W / view.w; }
  function markScale() { return Math.pow(zoom(), -0.75); }
  function apply() {
    var z = zoom();
    view.x = Math.min(Math.max(view.x, 0), W - view.w);
    view.y = Math.min(Math.max(view.y, 0), H - view.w * H / W);
    svg.setAttribute("viewBox", [view.x, view.y, view.w, view.w * H / W].map(function (v) { return +v.toFixed(2); }).join(" "));
    svg.style.setProperty("--k", markScale().toFixed(4));
    svg.style.setProperty("--lk", (1 / z).toFixed(4));
    svg.style.setProperty("--lx", (R * z * markScale() + 3).toFixed(1) + "px");
    halo.setAttribute("r", cur ? (2.2 * R * markScale()).toFixed(2) : "0");
    svg.classList.toggle("labelled", z >= labelZoom);
  }
  function zoomAt(f, cx, cy) {
    var w = Math.min(W, Math.max(W / meta.maxZoom, view.w / f));
    view.x = cx - (cx - view.x) * w / view.w;
    view.y = cy - (cy - view.y) * w / view.w;
    view.w = w;
    apply();
  }
  function toGraph(ev) {
    var r = svg.getBoundingClientRect();
    return [view.x + (ev.clientX - r.left) / r.width * view.w, view.y + (ev.clientY - r.top) / r.height * view.w * H / W];
  }

  function hopsWanted() {
    var k = Math.round(+kIn.value);
    if (!(k >= 0)) { k = meta.hops; }
    k = Math.min(meta.maxHops, k);
    kIn.value = k;
    return k;
  }

  function draw(v, isStart) {
    render(neighbourhood(v, hopsWanted()), isStart);
  }

  // find draws the neighbourhood of the dataset named s.
  function find(s) {
    if (!adj) { msg.textContent = "still unpacking the graph\u2026"; return false; }
    s = String(s).trim();
    var r = lookup(s);
    msg.classList.toggle("miss", typeof r !== "number");
    if (typeof r !== "number") {
      if (r.length > 1) {
        var names = r.slice(0, 5).map(idOf).join(", ");
        msg.textContent = (r.length > 1000 ? "more than 1,000" : thousands(r.length)) + " datasets match \u201c" + s + "\u201d (" + names + (r.length > 5 ? ", \u2026" : "") + "): type more of the id";
      } else {
        msg.textContent = "no dataset \u201c" + s + "\u201d in this graph";
      }
      return false;
    }
    msg.textContent = "found " + idOf(r);
    draw(r, false);
    return true;
  }

  svg.addEventListener("mouseover", function (ev) {
    var t = ev.target.closest ? ev.target.closest("path.node") : null;
    if (t && cur) { hover.textContent = info(cur.nodes[+t.getAttribute("data-i")]); }
  });
  svg.addEventListener("mouseout", function (ev) {
    var t = ev.target.closest ? ev.target.closest("path.node") : null;
    if (t && cur) { hover.textContent = info(cur.centre); }
  });
  var drag = null, moved = false;
  svg.addEventListener("pointerdown", function (ev) { drag = [ev.clientX, ev.clientY, view.x, view.y]; moved = false; });
  window.addEventListener("pointermove", function (ev) {
    if (!drag) { return; }
    var dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
    if (!moved && Math.abs(dx) + Math.abs(dy) < 4) { return; }
    moved = true;
    svg.classList.add("dragging");
    var k = view.w / svg.getBoundingClientRect().width;
    view.x = drag[2] - dx * k;
    view.y = drag[3] - dy * k;
    apply();
  });
  window.addEventListener("pointerup", function () { drag = null; svg.classList.remove("dragging"); });
  svg.addEventListener("click", function (ev) {
    if (moved || !cur) { return; }
    var t = ev.target.closest ? ev.target.closest("path.node") : null;
    if (t) {
      var v = cur.nodes[+t.getAttribute("data-i")];
      q.value = idOf(v);
      msg.classList.remove("miss");
      msg.textContent = "clicked " + idOf(v);
      draw(v, false);
    }
  });
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var p = toGraph(ev);
    zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, p[0], p[1]);
  }, { passive: false });
  function zoomMid(f) { zoomAt(f, view.x + view.w / 2, view.y + view.w * H / W / 2); }
  document.getElementById("zin").addEventListener("click", function () { zoomMid(1.5); });
  document.getElementById("zout").addEventListener("click", function () { zoomMid(1 / 1.5); });
  document.getElementById("zfit").addEventListener("click", function () { view = { x: 0, y: 0, w: W }; apply(); });
  document.getElementById("find").addEventListener("submit", function (ev) { ev.preventDefault(); find(q.value); });
  kIn.addEventListener("change", function () { if (cur) { draw(cur.centre, false); } });

  // Unpack once the page has loaded (the rest of it is readable meanwhile), then
  // draw the least accurate dataset's neighbourhood.
  var ready = new Promise(function (resolve, reject) {
    function start() {
      setTimeout(function () {
        timing.started = performance.now();
        unpack().then(function () {
          timing.unpacked = performance.now();
          q.disabled = false;
          go.disabled = false;
          msg.textContent = "";
          if (meta.start >= 0) { draw(meta.start, true); }
          resolve(true);
        }).catch(function (err) {
          msg.classList.add("miss");
          msg.textContent = "the graph could not be unpacked: " + err.message;
          console.error("graphdp: unpacking the graph: " + err.message);
          reject(err);
        });
      }, 0);
    }
    if (document.readyState === "complete") { start(); } else { window.addEventListener("load", start); }
  });

  function idsOf(xs) { return xs ? xs.map(idOf) : null; }
  // The page's small API, for people at the console and for the browser test.
  window.graphdp = {
    ready: ready,
    timing: timing,
    search: find,
    bindingPath: function (id) { var r = adj ? lookup(String(id)) : -1; return typeof r === "number" && r >= 0 ? idsOf(pathOf(r)) : null; },
    lit: function () { return cur && cur.path ? idsOf(cur.path) : []; },
    selected: function () { return cur ? idOf(cur.centre) : null; },
    drawn: function () {
      return cur ? { centre: idOf(cur.centre), hops: cur.k, datasets: cur.nodes.length, edges: cur.edges.length, within: cur.within,
        totalEdges: cur.totalEdges, ids: idsOf(cur.nodes), marks: nodesEl.childNodes.length } : null;
    },
    zoom: zoom,
    view: function () { return [view.x, view.y, view.w, view.w * H / W]; },
    centre: function (id) {
      var i = cur ? cur.nodes.map(idOf).indexOf(id) : -1;
      if (i < 0) { return null; }
      var r = marks[i].getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    labelsShown: function () {
      return labelEls.filter(function (l) { return l.firstChild.getClientRects().length > 0; }).length;
    }
  };
})
