#version 450 core

// Warehouse floor heatmap for the ops dashboard: each shelf of the floor plan is tinted by how
// many days of stock it still holds, and shelves waiting for a delivery pulse softly so the
// pickers see them from across the hall.

#define MAX_SHELVES 64
#define DAYS_CRITICAL 2.0
#define DAYS_COMFORTABLE 14.0
#define SATURATE(x) clamp((x), 0.0, 1.0)

/// One shelf of the floor plan, as the dashboard uploads it every minute.
struct Shelf {
    vec2 origin;      // lower-left corner on the plan, in metres
    vec2 size;        // width and depth, in metres
    float daysLeft;   // days of stock at the current sales rate
    float pendingQty; // units on order, 0.0 when nothing is on its way
    int zone;         // 0 ambient, 1 chilled, 2 frozen
};

/// The floor plan and the palette, bound once per frame by the dashboard.
layout(std140, binding = 0) uniform FloorPlan {
    Shelf shelves[MAX_SHELVES];
    int shelfCount;
    vec2 planSize;        // the hall, in metres
    float time;           // seconds since the dashboard opened
    vec4 criticalColor;   // red, „kritisch“ on the German dashboard
    vec4 comfortableColor;
    vec4 emptyFloorColor;
} plan;

/// Which shelf the cursor hovers over, written by the picking pass.
layout(std430, binding = 1) buffer Picking {
    int hoveredShelf;
    float hoveredDays;
};

layout(location = 0) in vec2 vPlanUv;
layout(location = 0) out vec4 fragColor;

uniform sampler2D floorTexture;
uniform vec2 cursorUv;

/// Where `days` of stock falls between critical (0.0) and comfortable (1.0).
float stockLevel(float days) {
    return SATURATE((days - DAYS_CRITICAL) / (DAYS_COMFORTABLE - DAYS_CRITICAL));
}

/// A soft 1.5 s pulse for shelves with a delivery on its way.
float deliveryPulse(float pendingQty, float time) {
    if (pendingQty <= 0.0) {
        return 0.0;
    }
    return 0.5 + 0.5 * sin(time * 4.18879);
}

/// Whether `point` (metres) lies on `shelf`, with a margin for the outline.
bool onShelf(Shelf shelf, vec2 point, float margin) {
    vec2 lower = shelf.origin - vec2(margin);
    vec2 upper = shelf.origin + shelf.size + vec2(margin);
    return all(greaterThanEqual(point, lower)) && all(lessThanEqual(point, upper));
}

/// Chilled and frozen zones get a cooler tint so they read apart from the ambient aisles.
vec3 zoneTint(int zone, vec3 color) {
    if (zone == 1) {
        return mix(color, vec3(0.55, 0.75, 1.0), 0.15);
    }
    if (zone == 2) {
        return mix(color, vec3(0.75, 0.85, 1.0), 0.30);
    }
    return color;
}

#ifdef SHOW_GRID
/// One-metre grid lines, for planning a new aisle.
float gridLine(vec2 point) {
    vec2 cell = abs(fract(point) - 0.5);
    return 1.0 - SATURATE(min(cell.x, cell.y) * 40.0);
}
#endif

/// Shades one fragment of the floor plan: the floor itself, the shelf under it tinted by its
/// stock, an outline for the hovered shelf and a pulse for pending deliveries.
void main() {
    // A shelf hit as the loop finds it; the nearest one wins where outlines overlap.
    struct Hit {
        int index;
        float distance;
        bool outline;
    };

    vec2 point = vPlanUv * plan.planSize;
    vec4 floorColor = texture(floorTexture, vPlanUv) * plan.emptyFloorColor;
    Hit hit = Hit(-1, 1.0e9, false);

    for (int i = 0; i < MAX_SHELVES; ++i) {
        if (i >= plan.shelfCount) {
            break;
        }
        Shelf shelf = plan.shelves[i];
        if (!onShelf(shelf, point, 0.05)) {
            continue;
        }
        vec2 centre = shelf.origin + shelf.size * 0.5;
        float distance = length(point - centre);
        if (distance < hit.distance) {
            hit.index = i;
            hit.distance = distance;
            hit.outline = !onShelf(shelf, point, -0.05);
        }
    }

    if (hit.index < 0) {
        fragColor = floorColor;
#ifdef SHOW_GRID
        fragColor.rgb = mix(fragColor.rgb, vec3(0.3), 0.25 * gridLine(point));
#endif
        return;
    }

    Shelf shelf = plan.shelves[hit.index];
    float level = stockLevel(shelf.daysLeft);
    vec4 stockColor = mix(plan.criticalColor, plan.comfortableColor, level);
    stockColor.rgb = zoneTint(shelf.zone, stockColor.rgb);

    // Empty shelves (no stock at all) are hatched, so they stand out even for colour-blind
    // pickers: diagonal stripes every 25 cm.
    if (shelf.daysLeft <= 0.0) {
        float stripe = step(0.5, fract((point.x + point.y) * 4.0));
        stockColor.rgb = mix(stockColor.rgb, vec3(0.1), 0.6 * stripe);
    }

    float pulse = deliveryPulse(shelf.pendingQty, plan.time);
    stockColor.rgb += vec3(0.12) * pulse;

    vec2 cursorPoint = cursorUv * plan.planSize;
    bool hovered = onShelf(shelf, cursorPoint, 0.0);
    if (hovered) {
        hoveredShelf = hit.index;
        hoveredDays = shelf.daysLeft;
    }

    if (hit.outline) {
        vec3 edge = hovered ? vec3(1.0, 0.85, 0.2) : vec3(0.15);
        fragColor = vec4(edge, 1.0);
        return;
    }

    fragColor = vec4(mix(floorColor.rgb, stockColor.rgb, stockColor.a), 1.0);
}
