(function () {
  "use strict";
  var form = document.getElementById("practice");
  if (!form) { return; }
  var need = Number(form.getAttribute("data-choose")) || 1;
  // Partial scoring (multiple response): each chosen answer adds its credit, the total kept in 0..1.
  var partial = form.getAttribute("data-scoring") === "partial";
  var verdict = document.getElementById("verdict");
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input[name=answer]"));
  var later = Array.prototype.slice.call(document.querySelectorAll("[data-after-answer]"));
  var letters = function (list) {
    return list.map(function (i) { return i.getAttribute("data-letter"); }).join(", ");
  };
  // Without JavaScript everything stays visible; with it, the learner answers first.
  later.forEach(function (el) { el.hidden = true; });
  form.addEventListener("change", function () {
    verdict.textContent = "";
    verdict.className = "verdict";
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var chosen = inputs.filter(function (i) { return i.checked; });
    if (chosen.length !== need) {
      verdict.className = "verdict prompt";
      verdict.textContent = need === 1 ? "Choose an answer first." :
        "Choose " + need + " answers (" + chosen.length + " selected).";
      return;
    }
    var keys = inputs.filter(function (i) { return i.hasAttribute("data-key"); });
    var right = inputs.every(function (i) { return i.checked === i.hasAttribute("data-key"); });
    var score = right ? 1 : 0;
    if (!right && partial) {
      score = chosen.reduce(function (sum, i) { return sum + Number(i.getAttribute("data-credit")); }, 0);
      score = Math.max(0, Math.min(1, score));
    }
    var partly = !right && score > 0.0005;
    verdict.className = "verdict " + (right ? "right" : partly ? "partly" : "wrong");
    verdict.textContent = right ? "\u2713 Correct." :
      (partly ? "\u25D0 Partly correct: " + Math.round(score * 100) + "% of the point." : "\u2717 Incorrect.") +
      " You chose " + letters(chosen) + "; the correct answer" +
      (keys.length > 1 ? "s are " : " is ") + letters(keys) + ".";
    inputs.forEach(function (i) {
      var card = document.getElementById("why-" + i.value);
      card.classList.toggle("chosen", i.checked);
      card.querySelector(".yours").hidden = !i.checked;
    });
    later.forEach(function (el) { el.hidden = false; });
  });
}());
