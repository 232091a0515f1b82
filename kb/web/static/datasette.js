// Datasette's own page scripts, moved out of its templates so that they run under the site's
// Content-Security-Policy (script-src 'self': no inline script). kb/web/datasette_templates.toml
// turns each inline <script> of Datasette's templates into a comment and loads this file
// instead (deferred, before Datasette's table.js):
// - the table page's facet setting, read from <meta name="datasette-allow-facet"> (table.js
//   reads the DATASETTE_ALLOW_FACET global when a column menu opens);
// - a click outside an open <details> menu closes it (_close_open_menus.html);
// - the SQL editor: CodeMirror on textarea#sql-editor, Shift+Enter runs the query, and the
//   "Format SQL" button (_codemirror_foot.html).
(function () {
  "use strict";
  var facet = document.querySelector('meta[name="datasette-allow-facet"]');
  if (facet) {
    window.DATASETTE_ALLOW_FACET = facet.getAttribute("content") === "true";
  }

  document.body.addEventListener("click", function (ev) {
    var target = ev.target;
    while (target && target.tagName !== "DETAILS") {
      target = target.parentNode;
    }
    var within = target && target.tagName === "DETAILS" ? target : null;
    Array.prototype.forEach.call(document.getElementsByTagName("details"), function (details) {
      if (details.open && details !== within) {
        details.open = false;
      }
    });
  });

  function sqlEditor() {
    var sqlFormat = document.querySelector("button#sql-format");
    var readOnly = document.querySelector("pre#sql-query");
    var sqlInput = document.querySelector("textarea#sql-editor");
    if (sqlFormat && !readOnly) {
      sqlFormat.hidden = false;
    }
    if (sqlInput && window.CodeMirror) {
      var editor = window.CodeMirror.fromTextArea(sqlInput, {
        lineNumbers: true,
        mode: "text/x-sql",
        lineWrapping: true,
      });
      // The label of the box CodeMirror replaces, on the box that now takes the typing.
      editor.getInputField().setAttribute("aria-label", "SQL query");
      editor.setOption("extraKeys", {
        "Shift-Enter": function () {
          document.getElementsByClassName("sql")[0].submit();
        },
        Tab: false,
      });
      if (sqlFormat && window.sqlFormatter) {
        sqlFormat.addEventListener("click", function () {
          editor.setValue(window.sqlFormatter.format(editor.getValue()));
        });
      }
      if (window.cmResize) {
        window.cmResize(editor, { resizableWidth: false });
      }
    }
    if (sqlFormat && readOnly && window.sqlFormatter) {
      var formatted = window.sqlFormatter.format(readOnly.innerHTML);
      if (formatted !== readOnly.innerHTML) {
        sqlFormat.hidden = false;
        sqlFormat.addEventListener("click", function () {
          readOnly.innerHTML = formatted;
        });
      }
    }
  }

  if (document.readyState === "complete") {
    sqlEditor();
  } else {
    window.addEventListener("load", sqlEditor);
  }
})();
