//
//  ShelfLabels.mm
//  Back-office app of the Lyon warehouse: prints the shelf price labels
//  after the nightly price export, one batch per aisle.
//

#import <Foundation/Foundation.h>

/// How a label shows a price drop.
typedef enum : NSInteger {
    LabelStyleRegular = 0,
    LabelStylePromotion,
    LabelStyleClearance,
} LabelStyle;

/// Printable area of a label, in printer dots.
struct LabelSize {
    int widthDots;
    int heightDots;
};

/// Formats a price in cents the French way: "12,50 €".
static NSString *FormatCents(NSInteger cents) {
    NSInteger euros = cents / 100;
    NSInteger rest = labs(cents % 100);
    return [NSString stringWithFormat:@"%ld,%02ld €", (long)euros, (long)rest];
}

/// Something that can print a rendered label (the Zebra driver, or a PDF for tests).
@protocol LabelPrinter <NSObject>
- (BOOL)printLines:(NSArray<NSString *> *)lines error:(NSError **)error;
@optional
- (struct LabelSize)labelSize;
@end

/// One shelf label: what the customer reads in the aisle.
@interface PriceLabel : NSObject
@property (nonatomic, copy) NSString *sku;
@property (nonatomic, copy) NSString *title;
@property (nonatomic) NSInteger priceCents;
@property (nonatomic) NSInteger previousCents;
@property (nonatomic) LabelStyle style;
+ (instancetype)labelWithSku:(NSString *)sku title:(NSString *)title cents:(NSInteger)cents;
- (BOOL)isDiscounted;
@end

/// SKUs as scanned: lower case, spaces, the odd "O" for a zero.
@interface NSString (ShelfSKU)
- (NSString *)normalizedSKU;
@end

@implementation NSString (ShelfSKU)

- (NSString *)normalizedSKU {
    NSString *trimmed = [self stringByTrimmingCharactersInSet:[NSCharacterSet whitespaceCharacterSet]];
    NSString *upper = [trimmed uppercaseString];
    return [upper stringByReplacingOccurrencesOfString:@"O" withString:@"0"];
}

@end

@implementation PriceLabel

+ (instancetype)labelWithSku:(NSString *)sku title:(NSString *)title cents:(NSInteger)cents {
    PriceLabel *label = [[PriceLabel alloc] init];
    label.sku = [sku normalizedSKU];
    label.title = title;
    label.priceCents = cents;
    label.previousCents = cents;
    label.style = LabelStyleRegular;
    return label;
}

/// A label shows the old price crossed out only when the drop is real.
- (BOOL)isDiscounted {
    return self.previousCents > self.priceCents;
}

@end

/// A batch of labels for one aisle, printed in shelf order.
@interface ShelfLabelBatch : NSObject
- (instancetype)initWithAisle:(NSString *)aisle printer:(id<LabelPrinter>)printer;
- (void)addLabel:(PriceLabel *)label;
- (NSArray<NSString *> *)renderLabel:(PriceLabel *)label width:(NSUInteger)width;
- (NSUInteger)printAll:(NSError **)error;
@end

@implementation ShelfLabelBatch {
    NSString *_aisle;
    id<LabelPrinter> _printer;
    NSMutableArray<PriceLabel *> *_labels;
}

- (instancetype)initWithAisle:(NSString *)aisle printer:(id<LabelPrinter>)printer {
    self = [super init];
    if (self) {
        _aisle = [aisle copy];
        _printer = printer;
        _labels = [NSMutableArray array];
    }
    return self;
}

/// Adds a label; a second label for the same SKU replaces the first.
- (void)addLabel:(PriceLabel *)label {
    NSUInteger existing = [_labels indexOfObjectPassingTest:^BOOL(PriceLabel *other, NSUInteger idx, BOOL *stop) {
        return [other.sku isEqualToString:label.sku];
    }];
    if (existing != NSNotFound) {
        [_labels replaceObjectAtIndex:existing withObject:label];
    } else {
        [_labels addObject:label];
    }
}

/// Renders one label as the printer's text lines: title, price, and the
/// promotion banner. Titles longer than the label are cut on a word and end in "…".
- (NSArray<NSString *> *)renderLabel:(PriceLabel *)label width:(NSUInteger)width {
    NSMutableArray<NSString *> *lines = [NSMutableArray array];
    if (width < 12) {
        width = 12;
    }

    // The title: as many whole words as fit on the first line.
    NSString *title = label.title ?: @"";
    if (title.length > width) {
        NSRange cut = [title rangeOfString:@" "
                                   options:NSBackwardsSearch
                                     range:NSMakeRange(0, width - 1)];
        NSUInteger end = cut.location == NSNotFound ? width - 1 : cut.location;
        title = [[title substringToIndex:end] stringByAppendingString:@"…"];
    }
    [lines addObject:title];

    // The SKU in small print, so the night shift can match label and shelf.
    [lines addObject:[NSString stringWithFormat:@"réf. %@", label.sku]];

    // The price, and the old one crossed out when it dropped.
    NSString *price = FormatCents(label.priceCents);
    if ([label isDiscounted]) {
        NSString *before = FormatCents(label.previousCents);
        NSInteger percent = 100 - (label.priceCents * 100) / MAX(label.previousCents, 1);
        [lines addObject:[NSString stringWithFormat:@"~%@~  %@", before, price]];
        if (percent >= 5) {
            [lines addObject:[NSString stringWithFormat:@"-%ld %%", (long)percent]];
        }
    } else {
        [lines addObject:price];
    }

    // The banner: promotions and clearance get a line of their own.
    switch (label.style) {
        case LabelStylePromotion:
            [lines addObject:@"PROMO"];
            break;
        case LabelStyleClearance:
            [lines addObject:@"DÉSTOCKAGE"];
            break;
        case LabelStyleRegular:
        default:
            break;
    }

    // The aisle and the date of the export, bottom right.
    NSDateFormatter *formatter = [[NSDateFormatter alloc] init];
    formatter.dateFormat = @"dd/MM";
    NSString *stamp = [formatter stringFromDate:[NSDate date]];
    NSString *footer = [NSString stringWithFormat:@"%@ · %@", _aisle, stamp];
    NSUInteger pad = width > footer.length ? width - footer.length : 0;
    [lines addObject:[[@"" stringByPaddingToLength:pad withString:@" " startingAtIndex:0]
                         stringByAppendingString:footer]];

    // Every line padded to the width: the printer centres nothing itself.
    NSMutableArray<NSString *> *padded = [NSMutableArray arrayWithCapacity:lines.count];
    for (NSString *line in lines) {
        if (line.length >= width) {
            [padded addObject:[line substringToIndex:width]];
        } else {
            [padded addObject:[line stringByPaddingToLength:width withString:@" " startingAtIndex:0]];
        }
    }
    return padded;
}

/// Prints every label in SKU order; stops at the first printer error.
- (NSUInteger)printAll:(NSError **)error {
    NSArray<PriceLabel *> *ordered = [_labels sortedArrayUsingComparator:^NSComparisonResult(PriceLabel *a, PriceLabel *b) {
        return [a.sku compare:b.sku];
    }];
    NSUInteger width = 32;
    if ([_printer respondsToSelector:@selector(labelSize)]) {
        width = (NSUInteger)MAX([_printer labelSize].widthDots / 12, 12);
    }
    NSUInteger printed = 0;
    for (PriceLabel *label in ordered) {
        if (![_printer printLines:[self renderLabel:label width:width] error:error]) {
            NSLog(@"aisle %@: printing stopped at %@", _aisle, label.sku);
            break;
        }
        printed += 1;
    }
    return printed;
}

@end
