// matrix.cpp - dense row-major matrix used by the capacity planner.
//
// The planner fits a least-squares model of request latency against a few
// load features; the matrices involved are tiny (tens of rows, a handful
// of columns), so this favours clarity over blocking or SIMD.

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace linalg {

class DimensionError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class Matrix {
public:
    Matrix(std::size_t rows, std::size_t cols, double fill = 0.0)
        : rows_(rows), cols_(cols), data_(rows * cols, fill) {}

    Matrix(std::initializer_list<std::initializer_list<double>> init)
        : rows_(init.size()), cols_(init.size() ? init.begin()->size() : 0) {
        data_.reserve(rows_ * cols_);
        for (const auto& row : init) {
            if (row.size() != cols_) {
                throw DimensionError("ragged initializer list");
            }
            data_.insert(data_.end(), row.begin(), row.end());
        }
    }

    static Matrix identity(std::size_t n) {
        Matrix m(n, n);
        for (std::size_t i = 0; i < n; ++i) m(i, i) = 1.0;
        return m;
    }

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }

    double& operator()(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }
    double operator()(std::size_t r, std::size_t c) const { return data_[r * cols_ + c]; }

    Matrix transpose() const {
        Matrix t(cols_, rows_);
        for (std::size_t r = 0; r < rows_; ++r)
            for (std::size_t c = 0; c < cols_; ++c)
                t(c, r) = (*this)(r, c);
        return t;
    }

    Matrix multiply(const Matrix& other) const;
    Matrix solve(const Matrix& rhs) const;
    double frobeniusNorm() const;
    std::string toString(int precision = 3) const;

private:
    std::size_t rows_;
    std::size_t cols_;
    std::vector<double> data_;
};

// i-k-j loop order keeps the inner loop walking both operands row-wise,
// which is noticeably faster than the textbook i-j-k even at these sizes.
Matrix Matrix::multiply(const Matrix& other) const {
    if (cols_ != other.rows_) {
        throw DimensionError("multiply: " + std::to_string(rows_) + "x" + std::to_string(cols_) +
                             " by " + std::to_string(other.rows_) + "x" + std::to_string(other.cols_));
    }
    Matrix out(rows_, other.cols_);
    for (std::size_t i = 0; i < rows_; ++i) {
        for (std::size_t k = 0; k < cols_; ++k) {
            const double a = (*this)(i, k);
            if (a == 0.0) continue;
            for (std::size_t j = 0; j < other.cols_; ++j) {
                out(i, j) += a * other(k, j);
            }
        }
    }
    return out;
}

// Gaussian elimination with partial pivoting on an augmented copy.
// Throws when the matrix is singular (pivot below 1e-12).
Matrix Matrix::solve(const Matrix& rhs) const {
    if (rows_ != cols_ || rhs.rows_ != rows_) {
        throw DimensionError("solve: need a square system with matching right-hand side");
    }
    const std::size_t n = rows_;
    Matrix a = *this;
    Matrix b = rhs;
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r) {
            if (std::fabs(a(r, col)) > std::fabs(a(pivot, col))) pivot = r;
        }
        if (std::fabs(a(pivot, col)) < 1e-12) {
            throw std::runtime_error("solve: matrix is singular");
        }
        if (pivot != col) {
            for (std::size_t c = 0; c < n; ++c) std::swap(a(col, c), a(pivot, c));
            for (std::size_t c = 0; c < b.cols_; ++c) std::swap(b(col, c), b(pivot, c));
        }
        for (std::size_t r = col + 1; r < n; ++r) {
            const double factor = a(r, col) / a(col, col);
            for (std::size_t c = col; c < n; ++c) a(r, c) -= factor * a(col, c);
            for (std::size_t c = 0; c < b.cols_; ++c) b(r, c) -= factor * b(col, c);
        }
    }
    // Back substitution.
    Matrix x(n, b.cols_);
    for (std::size_t c = 0; c < b.cols_; ++c) {
        for (std::size_t i = n; i-- > 0;) {
            double sum = b(i, c);
            for (std::size_t j = i + 1; j < n; ++j) sum -= a(i, j) * x(j, c);
            x(i, c) = sum / a(i, i);
        }
    }
    return x;
}

double Matrix::frobeniusNorm() const {
    double sum = 0.0;
    for (double v : data_) sum += v * v;
    return std::sqrt(sum);
}

std::string Matrix::toString(int precision) const {
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision);
    for (std::size_t r = 0; r < rows_; ++r) {
        os << (r == 0 ? "[[" : " [");
        for (std::size_t c = 0; c < cols_; ++c) {
            os << std::setw(precision + 6) << (*this)(r, c) << (c + 1 < cols_ ? ", " : "");
        }
        os << (r + 1 == rows_ ? "]]" : "]\n");
    }
    return os.str();
}

// Apply any callable element-wise, producing a new matrix of the same shape.
template <typename Fn>
Matrix map(const Matrix& m, Fn fn) {
    Matrix out(m.rows(), m.cols());
    for (std::size_t r = 0; r < m.rows(); ++r)
        for (std::size_t c = 0; c < m.cols(); ++c)
            out(r, c) = fn(m(r, c));
    return out;
}

// Ordinary least squares via the normal equations (X^T X) b = X^T y.
// Fine for well-conditioned, low-dimensional problems like ours.
inline Matrix leastSquares(const Matrix& x, const Matrix& y) {
    const Matrix xt = x.transpose();
    return xt.multiply(x).solve(xt.multiply(y));
}

}  // namespace linalg

#ifdef MATRIX_DEMO
int main() {
    using linalg::Matrix;
    // latency_ms ~ b0 + b1 * rps + b2 * cache_miss_ratio
    Matrix x{{1, 100, 0.05}, {1, 200, 0.07}, {1, 300, 0.10}, {1, 400, 0.20}, {1, 500, 0.22}};
    Matrix y{{12.0}, {15.5}, {19.8}, {27.1}, {30.6}};
    Matrix coef = linalg::leastSquares(x, y);
    std::cout << coef.toString() << "\n";
    std::cout << linalg::map(coef, [](double v) { return std::round(v * 100) / 100; }).toString(2) << "\n";
    return 0;
}
#endif
