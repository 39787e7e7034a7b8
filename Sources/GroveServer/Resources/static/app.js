// Grove's web app: one module per room, over what every page shares (grove.js). No build step.
import "./grove.js";
import "./focus.js";
import "./timers.js";
import "./pause.js";
import "./rooms.js";
