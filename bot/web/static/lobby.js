// The new challenge form shows the options of the game chosen (without a script every game's are shown, and only
// the chosen game's are read).
const form = document.getElementById("new-challenge");
if (form) {
  const choice = form.querySelector("#game");
  const show = () => {
    for (const fieldset of form.querySelectorAll("fieldset.game-options")) {
      fieldset.hidden = fieldset.dataset.game !== choice.value;
    }
  };
  choice.addEventListener("change", show);
  show();
}
