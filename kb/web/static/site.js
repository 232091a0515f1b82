// The site search box in every page's header (kb/web/templates/_site_search.html):
// "/" focuses it, and typing shows suggestions from /suggest.json (cards, glossary terms,
// rule numbers, sections) as an ARIA combobox: arrows move, Enter opens the chosen one,
// Escape closes. Without JavaScript the box still submits to /search, which opens what a
// rule number, card name or term names. No inline script anywhere: the site's Content
// Security Policy allows scripts from files only.
(function () {
  "use strict";
  var input = document.getElementById("site-q");
  var list = document.getElementById("site-suggestions");
  if (!input || !list) return;
  var items = [];
  var active = -1;
  var timer = null;
  var asked = "";

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" ||
      (target && target.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey &&
        !typing(event.target)) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function highlight(index) {
    var options = list.querySelectorAll("[role=option]");
    options.forEach(function (option, i) {
      option.setAttribute("aria-selected", i === index ? "true" : "false");
    });
    active = index;
    if (index >= 0 && options[index]) {
      input.setAttribute("aria-activedescendant", options[index].id);
      options[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function show(suggestions) {
    items = suggestions;
    list.textContent = "";
    suggestions.forEach(function (s, i) {
      var li = document.createElement("li");
      li.id = "site-suggestion-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.className = "suggestion kind-" + s.kind;
      var kind = document.createElement("span");
      kind.className = "suggestion-kind";
      kind.textContent = s.kind;
      var label = document.createElement("span");
      label.className = "suggestion-label";
      label.textContent = s.label;
      li.appendChild(kind);
      li.appendChild(label);
      if (s.text) {
        var text = document.createElement("span");
        text.className = "suggestion-text";
        text.lang = s.lang || "";
        text.textContent = s.text;
        li.appendChild(text);
      }
      li.addEventListener("mousedown", function (event) {
        event.preventDefault();  // keep the focus in the box until the page changes
        window.location.href = s.url;
      });
      list.appendChild(li);
    });
    if (suggestions.length) {
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    } else {
      close();
    }
    active = -1;
  }

  function fetchSuggestions() {
    var q = input.value.trim();
    if (!q) { close(); return; }
    asked = q;
    fetch("/suggest.json?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
      .then(function (data) { if (asked === q) show(data.suggestions || []); })
      .catch(function () { close(); });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(fetchSuggestions, 120);
  });

  input.addEventListener("keydown", function (event) {
    if (list.hidden) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      highlight(Math.min(active + 1, items.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      highlight(Math.max(active - 1, -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      window.location.href = items[active].url;
    } else if (event.key === "Escape") {
      close();
    }
  });

  input.addEventListener("blur", function () { setTimeout(close, 150); });

  // Datasette's SQL editor (CodeMirror) types into a textarea it creates without a label.
  function labelEditor() {
    document.querySelectorAll(".CodeMirror textarea:not([aria-label])").forEach(function (t) {
      t.setAttribute("aria-label", "SQL query");
    });
  }
  labelEditor();
  window.addEventListener("load", labelEditor);
})();
