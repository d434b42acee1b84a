(function () {
  "use strict";
  var svg = document.getElementById("graph"), hl = document.getElementById("hl"), halo = document.getElementById("halo");
  var hover = document.getElementById("hover"), msg = document.getElementById("msg"), q = document.getElementById("q");
  var nodes = svg.querySelectorAll("path.node"), labels = document.getElementById("labels").children;
  var W = svg.viewBox.baseVal.width, H = svg.viewBox.baseVal.height;
  var labelZoom = +svg.getAttribute("data-label-zoom"), maxZoom = +svg.getAttribute("data-max-zoom");
  var r0 = +svg.getAttribute("data-r"); // the marks' radius at zoom 1
  var view = { x: 0, y: 0, w: W }, byId = {}, lit = [], pinned = -1;
  var xy = [];
  nodes.forEach(function (n, i) {
    var p = n.getAttribute("data-xy").split(" ");
    xy.push([+p[0], +p[1]]);
    byId[n.getAttribute("data-id")] = i;
  });
  function pathOf(i) {
    var p = nodes[i].getAttribute("data-path");
    return p ? p.split(" ").map(Number) : [];
  }
  function draw(i) {
    lit.forEach(function (j) { nodes[j].classList.remove("on"); labels[j].classList.remove("on"); });
    lit = i < 0 ? [] : pathOf(i);
    if (i >= 0 && lit.length === 0) { lit = [i]; }
    lit.forEach(function (j) { nodes[j].classList.add("on"); labels[j].classList.add("on"); });
    hl.setAttribute("points", lit.length > 1 ? lit.map(function (j) { return xy[j].join(","); }).join(" ") : "");
    svg.classList.toggle("lit", lit.length > 0);
    hover.textContent = i < 0 ? "\u00a0" : nodes[i].getAttribute("data-info");
  }
  function pin(i) {
    pinned = i;
    if (i < 0) {
      halo.setAttribute("r", "0");
    } else {
      halo.setAttribute("cx", xy[i][0]);
      halo.setAttribute("cy", xy[i][1]);
      halo.setAttribute("r", (2.2 * r0 * markScale()).toFixed(2));
    }
    draw(i);
  }
  function zoom() { return W / view.w; }
  // Zooming spreads the marks apart faster than it grows them: a mark's size on
  // screen grows as zoom^0.25, and ids keep 11px.
  function markScale() { return Math.pow(zoom(), -0.75); }
  function apply() {
    var z = zoom();
    view.x = Math.min(Math.max(view.x, 0), W - view.w);
    view.y = Math.min(Math.max(view.y, 0), H - view.w * H / W);
    svg.setAttribute("viewBox", [view.x, view.y, view.w, view.w * H / W].map(function (v) { return +v.toFixed(2); }).join(" "));
    svg.style.setProperty("--k", markScale().toFixed(4));
    svg.style.setProperty("--lk", (1 / z).toFixed(4));
    svg.style.setProperty("--lx", (r0 * z * markScale() + 3).toFixed(1) + "px");
    if (pinned >= 0) { halo.setAttribute("r", (2.2 * r0 * markScale()).toFixed(2)); }
    svg.classList.toggle("labelled", z >= labelZoom);
  }
  function zoomAt(f, cx, cy) {
    var w = Math.min(W, Math.max(W / maxZoom, view.w / f));
    view.x = cx - (cx - view.x) * w / view.w;
    view.y = cy - (cy - view.y) * w / view.w;
    view.w = w;
    apply();
  }
  function toGraph(ev) {
    var r = svg.getBoundingClientRect();
    return [view.x + (ev.clientX - r.left) / r.width * view.w, view.y + (ev.clientY - r.top) / r.height * view.w * H / W];
  }
  function centreOn(i, z) {
    view.w = W / Math.min(maxZoom, Math.max(zoom(), z));
    view.x = xy[i][0] - view.w / 2;
    view.y = xy[i][1] - view.w * H / W / 2;
    apply();
  }
  // find selects the dataset named q: the exact id, else the one id equal to it
  // ignoring case, else the one id containing it (ignoring case).
  function find(s) {
    s = String(s).trim();
    var i = byId.hasOwnProperty(s) ? byId[s] : -1, low = s.toLowerCase(), same = [], part = [];
    if (i < 0 && s !== "") {
      nodes.forEach(function (n, j) {
        var id = n.getAttribute("data-id").toLowerCase();
        if (id === low) { same.push(j); } else if (id.indexOf(low) >= 0) { part.push(j); }
      });
      i = same.length === 1 ? same[0] : same.length === 0 && part.length === 1 ? part[0] : -1;
    }
    msg.classList.toggle("miss", i < 0);
    if (i < 0) {
      var many = same.length > 1 ? same : part;
      msg.textContent = many.length > 1 ? many.length + " datasets match \u201c" + s + "\u201d: type more of the id" : "no dataset \u201c" + s + "\u201d in this graph";
      return false;
    }
    msg.textContent = "found " + nodes[i].getAttribute("data-id");
    centreOn(i, labelZoom);
    pin(i);
    return true;
  }
  nodes.forEach(function (n, i) {
    n.addEventListener("mouseenter", function () { draw(i); });
    n.addEventListener("mouseleave", function () { draw(pinned); });
  });
  var drag = null, moved = false;
  svg.addEventListener("pointerdown", function (ev) {
    drag = [ev.clientX, ev.clientY, view.x, view.y];
    moved = false;
  });
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
    if (moved) { return; }
    var t = ev.target.closest ? ev.target.closest("path.node") : null;
    var i = t ? Array.prototype.indexOf.call(nodes, t) : -1;
    pin(i === pinned ? -1 : i);
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
  apply();
  function ids(is) { return is.map(function (j) { return nodes[j].getAttribute("data-id"); }); }
  // The page's small API, for people at the console and for the browser test.
  window.graphdp = {
    search: find,
    bindingPath: function (id) { return byId.hasOwnProperty(id) ? ids(pathOf(byId[id])) : null; },
    lit: function () { return ids(lit); },
    selected: function () { return pinned < 0 ? null : nodes[pinned].getAttribute("data-id"); },
    zoom: zoom,
    view: function () { return [view.x, view.y, view.w, view.w * H / W]; },
    centre: function (id) {
      var r = nodes[byId[id]].getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    labelsShown: function () {
      return Array.prototype.filter.call(labels, function (l) { return l.firstChild.getClientRects().length > 0; }).length;
    }
  };
})();
