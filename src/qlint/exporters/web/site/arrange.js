(function () {
  "use strict";
  // Ordering and matching: one select per position (or per prompt), checked all-or-nothing or,
  // under partial scoring, 1/n of the point per step in place (pair right), as QTI and Moodle grade,
  // with a mark beside each select and a card per step (or pair) saying what the learner did.
  var form = document.getElementById("practice");
  if (!form) { return; }
  var ordering = form.getAttribute("data-type") === "ordering";
  var partial = form.getAttribute("data-scoring") === "partial";
  var verdict = document.getElementById("verdict");
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
  var later = Array.prototype.slice.call(document.querySelectorAll("[data-after-answer]"));
  var each = function (selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); };
  var letterOf = function (select, value) {
    var found = Array.prototype.filter.call(select.options, function (o) { return o.value === value; })[0];
    return found ? found.getAttribute("data-letter") : "?";
  };
  var nameOf = function (select, i) { return ordering ? String(i + 1) : select.getAttribute("data-number"); };
  var yours = function (card, text, right) {
    var badge = card.querySelector(".yours");
    badge.textContent = text;
    badge.hidden = false;
    card.classList.toggle("placed-right", right);
    card.classList.toggle("placed-wrong", !right);
  };
  // Without JavaScript everything stays visible; with it, the learner answers first.
  later.forEach(function (el) { el.hidden = true; });
  form.addEventListener("change", function () {
    verdict.textContent = "";
    verdict.className = "verdict";
    each(".slot-mark", function (m) { m.textContent = ""; m.className = "slot-mark"; });
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var chosen = selects.filter(function (s) { return s.value !== ""; });
    if (chosen.length !== selects.length) {
      verdict.className = "verdict prompt";
      verdict.textContent = (ordering ? "Choose a step for every position (" : "Choose a response for every prompt (") +
        chosen.length + " of " + selects.length + " chosen).";
      return;
    }
    if (ordering) {
      var twice = selects.filter(function (s, i) {
        return selects.some(function (t, j) { return j < i && t.value === s.value; });
      });
      if (twice.length) {
        verdict.className = "verdict prompt";
        verdict.textContent = "Use each step once: " + letterOf(twice[0], twice[0].value) + " is in more than one position.";
        return;
      }
    }
    var right = selects.filter(function (s) { return s.value === s.getAttribute("data-key"); });
    var all = right.length === selects.length;
    selects.forEach(function (s) {
      var mark = document.getElementById(s.id + "-mark");
      var ok = s.value === s.getAttribute("data-key");
      mark.className = "slot-mark " + (ok ? "right" : "wrong");
      mark.textContent = ok ? "\u2713 Right" : "\u2717 Wrong: the answer is " + letterOf(s, s.getAttribute("data-key")) + ".";
    });
    var pairs = function (key) {
      return selects.map(function (s, i) {
        var value = key ? s.getAttribute("data-key") : s.value;
        return ordering ? letterOf(s, value) : nameOf(s, i) + " " + letterOf(s, value);
      }).join(", ");
    };
    var partly = !all && partial && right.length > 0;
    verdict.className = "verdict " + (all ? "right" : partly ? "partly" : "wrong");
    verdict.textContent = all ? "\u2713 Correct." : (partly ? "\u25D0 Partly correct: " +
      Math.round(100 * right.length / selects.length) + "% of the point, " : "\u2717 Incorrect: ") + right.length + " of " + selects.length +
      (ordering ? " steps in place. Your order: " + pairs(false) + "; the correct order is " + pairs(true) + "." :
        " pairs right. Your pairs: " + pairs(false) + "; the correct pairs are " + pairs(true) + ".");
    if (ordering) {
      each("[data-step]", function (card) {
        var at = selects.map(function (s) { return s.value; }).indexOf(card.getAttribute("data-step")) + 1;
        var place = Number(card.getAttribute("data-position")) || 0;
        yours(card, at ? "You put it at step " + at : "You left it out", at === place);
      });
    } else {
      each("[data-prompt]", function (card) {
        var s = document.getElementById("prompt-" + card.getAttribute("data-prompt"));
        yours(card, "Your match: " + letterOf(s, s.value), s.value === s.getAttribute("data-key"));
      });
      each("[data-response]", function (card) {
        var by = selects.filter(function (s) { return s.value === card.getAttribute("data-response"); })
          .map(function (s) { return s.getAttribute("data-number"); });
        yours(card, by.length ? "You matched it to prompt " + by.join(", ") : "You left it unmatched", !by.length);
      });
    }
    later.forEach(function (el) { el.hidden = false; });
  });
}());
