/// The map page's step list for the selected route: for car and foot the route's maneuvers (between two pins with
/// up to two alternatives to choose from), for transit each itinerary's walk steps and rides (line, stops, times).
enum MapPageSteps {
    static let text = #"""

  const routeBox = document.getElementById("route-box"), routeChoices = document.getElementById("route-choices"),
        stepList = document.getElementById("steps");

  // The routes of a /route/v1 answer (steps=true) as choices; the first is drawn and listed.
  function showRouteChoices(routes) {
    routeBox.hidden = false;
    const choose = i => {
      selectRoute(routes[i]);
      [...routeChoices.children].forEach((choice, j) => choice.setAttribute("aria-pressed", String(i === j)));
      listSteps(routes[i].legs.flatMap(leg => leg.steps.map(step => ({
        text: step.maneuver.instruction, detail: step.distance > 0 ? `${formatDistance(step.distance)}, ${formatDuration(step.duration)}` : "" }))));
    };
    routeChoices.replaceChildren(...routes.map((route, i) =>
      button(`${i ? `Alternative ${i}` : "Fastest"}: ${formatDuration(route.duration)}, ${formatDistance(route.distance)}`,
             `show the ${i ? `alternative ${i}` : "fastest route"} and its steps`, () => choose(i))));
    routeChoices.hidden = routes.length < 2;
    choose(0);
  }

  // The legs of the transit itineraries (one per pair of pins): walk steps, and each ride as its line and stops.
  function showTransitSteps(itineraries) {
    routeBox.hidden = false;
    routeChoices.replaceChildren(); routeChoices.hidden = true;
    const clock = date => date.slice(11, 16);
    listSteps(itineraries.flatMap(itinerary => itinerary.legs.flatMap(leg => {
      if (leg.kind === "ride") {
        const line = [leg.transitMode, leg.routeShortName || leg.routeLongName].filter(Boolean).join(" ");
        return [{ text: `${clock(leg.expectedDepartureDate)} ${line}${leg.headsign ? ` to ${leg.headsign}` : ""}: ${leg.from.name} to ${leg.to.name}`,
                  detail: `${leg.numberOfStops} stop${leg.numberOfStops === 1 ? "" : "s"}, arrive ${clock(leg.expectedArrivalDate)}` }];
      }
      const steps = leg.steps.length ? leg.steps : [{ instructions: `Walk to ${leg.to.name}`, distance: leg.distance, expectedTravelTime: leg.expectedTravelTime }];
      return steps.map(step => ({ text: step.instructions,
                                  detail: step.distance > 0 ? `${formatDistance(step.distance)}, ${formatDuration(step.expectedTravelTime)}` : "" }));
    })));
  }

  function listSteps(steps) {
    stepList.replaceChildren(...steps.map(({ text, detail }) => {
      const item = textElement("li", text);
      if (detail) item.append(textElement("small", detail));
      return item;
    }));
  }

  function hideSteps() { routeBox.hidden = true; routeChoices.replaceChildren(); stepList.replaceChildren(); }
"""#
}
